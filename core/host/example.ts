// The example pre-built a first run imports: the project's own fixture (test/fixtures/iap), which the
// build copies into dist/examples/ so the installers carry it as data (no test folder goes in the app);
// from the sources (tsx), the fixture itself.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { productRoot } from '../adapters/locate';
import type { ExampleSource } from '../projects/handlers';

const FOLDER = 'Instance-Check-Example';

export function exampleSource(productDir?: string): ExampleSource {
  const root = productRoot(productDir);
  const places = [path.join(root, 'dist', 'examples', FOLDER), path.join(root, 'test', 'fixtures', 'iap', 'prebuilts', FOLDER)];
  return { name: 'the example pre-built Instance Check - Example', dir: places.find((dir) => existsSync(dir)) ?? places[0]! };
}
