// Where the console finds its own files at run time: the child runner of adapter processes and
// the adapters shipped with the product (the top-level adapters/ folder). Found by walking up
// from this module to the product's root, so it works from the sources (tsx) and from a bundle
// in dist/; a packaged build passes the folder it unpacks these files to (`productDir`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const PRODUCT_NAME = 'automation-console';

function moduleDir(): string {
  const fromMeta = (import.meta as { dirname?: string }).dirname;
  if (fromMeta) return fromMeta;
  return typeof __dirname === 'string' ? __dirname : process.cwd();
}

function isProductRoot(dir: string): boolean {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    const pkg: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === PRODUCT_NAME;
  } catch {
    return false;
  }
}

/** The product folder: `given`, else found by walking up (a few file reads; the adapters service finds it once per profile). */
export function productRoot(given?: string): string {
  if (given) return given;
  let dir = moduleDir();
  for (;;) {
    if (isProductRoot(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the console's product folder (a package.json named ${PRODUCT_NAME}) above ${moduleDir()}; pass the product folder to the host (productDir)`);
    dir = parent;
  }
}

export const runnerPath = (productDir?: string) => path.join(productRoot(productDir), 'core', 'adapters', 'runner.cjs');
export const shippedAdaptersDir = (productDir?: string) => path.join(productRoot(productDir), 'adapters');

/** Adapters installed through the console: `<data-dir>/adapters`. */
export const dataDirAdapters = (dataDir: string) => path.join(dataDir, 'adapters');
