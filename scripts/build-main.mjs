// Bundles the Electron main process (with the core) and the preload into dist/main.
import { build } from 'esbuild';

const common = {
  define: { 'import.meta.dirname': '__dirname' },
  bundle: true, platform: 'node', target: 'node22', format: 'cjs', sourcemap: true, logLevel: 'warning' };
await build({
  ...common,
  entryPoints: ['main/main.ts'],
  outfile: 'dist/main/main.cjs',
  external: ['electron', 'mongodb', 'fastify', '@fastify/static', 'typescript'],
});
// The preload runs sandboxed: everything but electron is bundled in.
await build({ ...common, entryPoints: ['main/preload.ts'], outfile: 'dist/main/preload.cjs', external: ['electron'] });
console.log('built dist/main/main.cjs and dist/main/preload.cjs');
