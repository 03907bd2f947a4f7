// Builds the UI before `npm run serve` when it has not been built yet.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('dist/renderer/index.html')) {
  console.log('Building the console UI (first run)…');
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
}
