// A writer process for the crash tests. `pause <file> <json> <step>`: saves <json> the way
// profiles are saved and stops for good after <step>, saying so on stdout, to be killed there.
// `loop <file> <jsonA> <jsonB>`: saves A and B in turn until killed, saying LOOPING after the first.
import { readFileSync } from 'node:fs';
import { writeJsonAtomic, type AtomicStep } from '../../../core/files/atomic';

const [mode, file, ...rest] = process.argv.slice(2);
const read = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as unknown;

if (mode === 'pause') {
  const [contentFile, stopAt] = rest;
  await writeJsonAtomic(file!, read(contentFile!), {
    backup: true,
    mode: 0o600,
    onStep: async (step: AtomicStep) => {
      if (step !== stopAt) return;
      process.stdout.write(`AT ${step}\n`);
      await new Promise(() => setInterval(() => undefined, 1000));
    },
  });
  process.stdout.write('DONE\n');
} else if (mode === 'loop') {
  const versions = rest.map(read);
  // LOOPING once the first save is done, so a kill lands among saves even on a loaded machine.
  for (let i = 0; ; i++) {
    await writeJsonAtomic(file!, versions[i % versions.length], { backup: true, mode: 0o600 });
    if (i === 0) process.stdout.write('LOOPING\n');
  }
} else {
  process.stderr.write(`usage: atomic-writer pause|loop ...\n`);
  process.exit(2);
}
