// `npm run docs:screenshots`: refreshes the README's pictures (docs/screenshots/overview.png and
// job.png) by running the end-to-end test that takes them (test/e2e/screenshots.spec.ts) with its
// output pointed at docs/screenshots. A plain test run writes them under test-results/screenshots/.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const run = spawnSync(process.execPath, [cli, 'test', 'test/e2e/screenshots.spec.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CONSOLE_SCREENSHOTS_DIR: 'docs/screenshots' },
});
if (run.error) throw run.error;
if (run.status === 0) console.log('Refreshed docs/screenshots/overview.png and docs/screenshots/job.png: commit them with the change they show.');
process.exit(run.status ?? 1);
