import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// Three pages share one bundle graph: the console (index.html), Swagger UI over the served
// contract (swagger-ui.html) and GraphiQL (graphiql/index.html, which Maven puts where Spring
// GraphQL looks for its GraphiQL page). Relative asset URLs keep them working under a path prefix.
export default defineConfig({
  base: './',
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      input: {
        console: resolve(import.meta.dirname, 'index.html'),
        swagger: resolve(import.meta.dirname, 'swagger-ui.html'),
        graphiql: resolve(import.meta.dirname, 'graphiql', 'index.html'),
      },
    },
  },
});
