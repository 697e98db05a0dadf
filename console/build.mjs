// Builds the console bundle into console/dist (or the folder given): `node console/build.mjs [outDir]`.
// The bundle is committed, so building or running the service needs no Node; whoever changes a source
// here rebuilds and commits console/dist with it. ConsoleBundleTests rebuilds into a temp folder and
// fails when the result differs from console/dist by a byte, so the two cannot drift.
// Only node: imports above the version check: on an older Node they load, and the check speaks first.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeTooOld } from './node-version.mjs';

const tooOld = nodeTooOld(process.versions.node);
if (tooOld) {
  console.error(`[console] ${tooOld}`);
  process.exit(1);
}

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(process.argv[2] ?? join(here, 'dist'));
const installed = join(here, 'node_modules', '.package-lock.json');
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

// npm ci only when package-lock.json changed since the last install: a rebuild then costs Vite's seconds alone.
if (mtime(installed) < mtime(join(here, 'package-lock.json'))) {
  console.log('[console] npm ci');
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
}

const started = Date.now();
const { build } = await import('vite');
await build({ root: here, configFile: join(here, 'vite.config.js'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
console.log(`[console] built into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
