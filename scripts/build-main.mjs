// Bundles the Electron main process (with the core) and the preload into dist/main, and the
// headless console that `npm start` serves to a browser without Electron into dist/serve
// (bundled, it starts in a fraction of the time and memory the TypeScript loader takes).
// The bundles are CommonJS: ESM-only facts are given their CommonJS values (import.meta.url
// from __filename), and any esbuild warning fails the build (a warning here has meant a
// main process that crashes at start).
import { cpSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const common = {
  define: { 'import.meta.dirname': '__dirname' },
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
};

async function bundle(options) {
  const result = await build({ ...common, ...options, write: false });
  if (result.warnings.length > 0) {
    console.error(`build-main: ${options.outfile}: ${result.warnings.length} esbuild warning(s) above; fix them (a warning fails the build)`);
    process.exit(1);
  }
  // Each file is replaced whole (a running test or app never reads half a bundle).
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
}

await bundle({
  entryPoints: ['main/main.ts'],
  outfile: 'dist/main/main.cjs',
  define: { ...common.define, 'import.meta.url': '__consoleImportMetaUrl' },
  banner: { js: "'use strict';\nconst __consoleImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  external: ['electron', 'mongodb', 'fastify', '@fastify/static', 'typescript', 'pino'],
});
await bundle({
  entryPoints: ['core/cli/serve.ts'],
  outfile: 'dist/serve/serve.cjs',
  define: { ...common.define, 'import.meta.url': '__consoleImportMetaUrl' },
  banner: { js: "'use strict';\nconst __consoleImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  external: ['mongodb', 'fastify', '@fastify/static', 'typescript', 'pino'],
});
// The preload runs sandboxed: everything but electron is bundled in, and it may require nothing else.
await bundle({ entryPoints: ['main/preload.ts'], outfile: 'dist/main/preload.cjs', external: ['electron'] });
// The example pre-built a first run imports (the project's own fixture), shipped in dist/ as data: no test folder goes in the app.
cpSync('test/fixtures/iap/prebuilts/Instance-Check-Example', 'dist/examples/Instance-Check-Example', { recursive: true });
console.log('built dist/main/main.cjs, dist/main/preload.cjs and dist/serve/serve.cjs (and dist/examples/)');
