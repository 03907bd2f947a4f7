// The example pre-built a first run imports: the project's own fixture (test/fixtures/iap), shipped
// with the console (electron-builder.yml lists it) so a newcomer sees a job run without a file of their own.
import path from 'node:path';
import { productRoot } from '../adapters/locate';
import type { ExampleSource } from '../projects/handlers';

export const EXAMPLE_PREBUILT = path.join('test', 'fixtures', 'iap', 'prebuilts', 'Instance-Check-Example');

export function exampleSource(productDir?: string): ExampleSource {
  return { name: 'the example pre-built Instance Check - Example', dir: path.join(productRoot(productDir), EXAMPLE_PREBUILT) };
}
