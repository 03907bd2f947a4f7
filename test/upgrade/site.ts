// A copy of the fixture site in a temporary folder, with what cannot live in git beside it:
// node_modules and .git folders (which the check must skip) and an oversized file.
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const FIXTURE_SITE = path.resolve(import.meta.dirname, 'fixtures/site');

export async function copySite(): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'upgrade-site-'));
  await cp(FIXTURE_SITE, dir, { recursive: true });
  const removed = "module.exports = () => fetch('/admin/services/health');\n";
  await mkdir(path.join(dir, 'apps/app-health-monitor/node_modules/old-client'), { recursive: true });
  await writeFile(path.join(dir, 'apps/app-health-monitor/node_modules/old-client/index.js'), removed);
  await mkdir(path.join(dir, '.git/hooks'), { recursive: true });
  await writeFile(path.join(dir, '.git/hooks/post-merge.sh'), '#!/bin/sh\nnpm run index\n');
  await writeFile(path.join(dir, 'apps/app-ui/src/huge.js'), `// big\n${'x'.repeat(3 * 1024 * 1024)}\nfetch('/admin/services/health');\n`);
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}
