// The store's lifecycle steps run one at a time, in the order asked; a restore asked while a step
// runs or waits is refused naming it, and a failed step does not stop the next.
import { describe, expect, it } from 'vitest';
import { StoreLifecycle } from '../../core/store/lifecycle';

const later = () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
};

describe('StoreLifecycle', () => {
  it('runs queued steps one at a time, in order, a failed one included', async () => {
    const lifecycle = new StoreLifecycle();
    const seen: string[] = [];
    const first = later();
    const a = lifecycle.queue('a backup', async () => {
      seen.push('backup starts');
      await first.gate;
      seen.push('backup ends');
    });
    const b = lifecycle.queue('reopening the console on profile "x"', async () => {
      seen.push('switch');
      throw new Error('cannot open');
    });
    const c = lifecycle.queue('closing the console', async () => void seen.push('close'));
    expect(lifecycle.current()?.what).toBe('a backup');
    first.release();
    await a;
    await expect(b).rejects.toThrow('cannot open');
    await c;
    expect(seen).toEqual(['backup starts', 'backup ends', 'switch', 'close']);
    expect(lifecycle.current()).toBeUndefined();
  });

  it('refuses a restore while another step runs, naming it, and takes one once it has ended', async () => {
    const lifecycle = new StoreLifecycle();
    const first = later();
    const running = lifecycle.exclusive('the restore of backup backup-1', () => first.gate);
    await expect(lifecycle.exclusive('a second click', async () => 'no')).rejects.toThrow('the restore of backup backup-1 is about to run');
    await new Promise((resolve) => setImmediate(resolve));
    await expect(lifecycle.exclusive('the restore of backup backup-2', async () => 'no')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('the restore of backup backup-2 is refused: the restore of backup backup-1 is running'),
    });
    first.release();
    await running;
    await expect(lifecycle.exclusive('the restore of backup backup-2', async () => 'yes')).resolves.toBe('yes');
  });
});
