// Where the desktop console keeps its data when Electron cannot say (main/data-dir.ts).
import { describe, expect, it } from 'vitest';
import { desktopDataDir } from '../../../main/data-dir';
import { defaultDataDir } from '../../../core/host/data-dir';

describe('the desktop data directory', () => {
  it('is CONSOLE_DATA_DIR when set, without asking Electron', () => {
    const asked: string[] = [];
    expect(desktopDataDir(() => (asked.push('userData'), '/electron/userData'), { CONSOLE_DATA_DIR: '/srv/console' })).toBe('/srv/console');
    expect(asked).toEqual([]);
  });

  it("is Electron's userData folder otherwise", () => {
    expect(desktopDataDir(() => '/home/op/.config/Automation Console', {})).toBe('/home/op/.config/Automation Console');
  });

  it('falls back to the headless default, saying why, when Electron throws or gives no path', () => {
    const warnings: string[] = [];
    const warn = (m: string) => void warnings.push(m);
    expect(desktopDataDir(() => { throw new Error("Failed to get 'userData' path"); }, {}, warn)).toBe(defaultDataDir());
    expect(desktopDataDir(() => '', {}, warn)).toBe(defaultDataDir());
    expect(desktopDataDir(() => undefined, {}, warn)).toBe(defaultDataDir());
    expect(warnings).toEqual([
      `Electron has no user data folder (Failed to get 'userData' path): the console keeps its data in ${defaultDataDir()}`,
      `Electron has no user data folder (it gave an empty path): the console keeps its data in ${defaultDataDir()}`,
      `Electron has no user data folder (it gave undefined, not a path): the console keeps its data in ${defaultDataDir()}`,
    ]);
  });
});
