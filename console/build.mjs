// Builds the console bundle for Maven (exec-maven-plugin, generate-resources): `node build.mjs <outDir>`.
// Repeat builds must stay cheap: `npm ci` runs only when package-lock.json changed since the last
// install, and Vite only when a source is newer than the last bundle.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const outDir = resolve(process.argv[2] ?? join(here, '..', 'target', 'console'));
const installed = join(here, 'node_modules', '.package-lock.json');
const stamp = join(outDir, '.built');

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

if (mtime(installed) < mtime(join(here, 'package-lock.json'))) {
  console.log('[console] npm ci');
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
}

const sources = ['src', 'index.html', 'swagger-ui.html', 'graphiql', 'vite.config.js', 'package-lock.json', 'build.mjs']
  .map((p) => join(here, p)).filter(existsSync);
const changed = Math.max(...sources.map(newest));
if (mtime(stamp) > changed) {
  console.log(`[console] up to date: ${outDir}`);
} else {
  const started = Date.now();
  const { build } = await import('vite');
  await build({ root: here, configFile: join(here, 'vite.config.js'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
  writeFileSync(stamp, new Date().toISOString() + '\n');
  console.log(`[console] built into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
