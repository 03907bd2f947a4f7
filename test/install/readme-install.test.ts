// What the README says about installing is derived from the files npm and electron-builder read, so
// it cannot go stale: the EBADENGINE warnings of an install on Node 20 (the lockfile's `engines`
// against that Node, as npm compares them), the packages whose install scripts run (allowScripts),
// the desktop app's targets and where they land, and data directories outside the clone.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const README = read('README.md');
const pkg = JSON.parse(read('package.json')) as { name: string; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string; engines?: { node?: string }; hasInstallScript?: boolean }> };
// npm's own range matcher (semver, installed with npm's tooling and electron-builder's).
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

/** The Node 20 the README's table is for: the last Node 20 release. */
const NODE_20 = '20.20.2';
const nameOf = (key: string) => (key === '' ? pkg.name : key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));

/** The README section that starts with `heading`, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start, `README has no "${heading}"`).toBeGreaterThan(-1);
  const rest = README.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,3} /);
  return end === -1 ? rest : rest.slice(0, end);
}

describe('README: what npm ci prints on Node 20', () => {
  const text = section('### What `npm ci` prints on Node 20');
  const expected = Object.entries(lock.packages)
    .filter(([, entry]) => entry.engines?.node && !semver.satisfies(NODE_20, entry.engines.node))
    .map(([key, entry]) => ({ name: nameOf(key), range: entry.engines?.node ?? '' }))
    .sort((a, b) => a.name.localeCompare(b.name));

  it(`lists exactly the packages whose engines exclude Node ${NODE_20}, with their ranges, and their number`, () => {
    const rows = [...text.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|/gm)].map(([, name = '', range = '']) => ({ name, range }));
    expect(rows.toSorted((a, b) => a.name.localeCompare(b.name))).toEqual(expected);
    expect(text).toContain(`On Node 20 (${NODE_20} here), \`npm ci\` prints ${expected.length} \`npm warn EBADENGINE Unsupported engine\` warnings`);
  });

  it('allowScripts names exactly the installed packages that have install scripts, and the README names them', () => {
    const withScripts = [...new Set(Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript).map(([key]) => nameOf(key)))].sort();
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts);
    expect(Object.values(pkg.allowScripts ?? {}).every((allowed) => allowed === true)).toBe(true);
    for (const name of withScripts) expect(text, name).toContain(`\`${name}\` (`);
    expect(text).toContain('npm\nprints no `install scripts not yet covered by allowScripts` lines');
  });

  it('nothing native is left in the install: no package with a native build (better-sqlite3) in the lockfile', () => {
    expect(Object.keys(lock.packages).filter((key) => /node_modules\/(better-sqlite3|node-gyp-build|prebuild-install)$/.test(key))).toEqual([]);
  });
});

describe('README: the desktop app and its installers', () => {
  const text = section('### The desktop app and its installers');
  const builder = parse(read('electron-builder.yml')) as { electronVersion: string; directories: { output: string }; linux: { target: string[] }; win: { target: string[] }; mac: { target: string[] } };

  it('names npm run dist, every target of electron-builder.yml and the folder they land in', () => {
    expect(text).toContain('npm run dist\n');
    const words: Record<string, string> = { AppImage: 'AppImage', deb: '`.deb`', nsis: 'NSIS installer', dmg: '`.dmg`' };
    for (const target of [...builder.linux.target, ...builder.win.target, ...builder.mac.target]) {
      expect(words[target], `a README word for target ${target}`).toBeDefined();
      expect(text).toContain(words[target]);
    }
    expect(text).toContain(`They land in \`${builder.directories.output}/\``);
  });

  it("names the Electron archive of electron-builder.yml's version and the offline ways to hand it over", () => {
    const v = builder.electronVersion;
    expect(text).toContain(`The installers embed Electron ${v}`);
    expect(text).toContain(`\`electron-v${v}-linux-x64.zip\``);
    expect(text).toContain('`npm run dist -- --electron-dist PATH`');
    expect(text).toContain('`electronDist`');
    expect(text).toContain(`~/.cache/electron/<SHA-256 of https://github.com/electron/electron/releases/download/v${v}>/electron-v${v}-linux-x64.zip`);
    expect(text).toContain('**On an offline machine**');
  });
});

describe('README and docs: data directories outside the clone', () => {
  it('every --data-dir example names a folder outside the clone (the API token is written there)', () => {
    for (const file of ['README.md', 'docs/running-and-testing.md']) {
      const dirs = [...read(file).matchAll(/--data-dir (\S+)/g)].map(([, dir = '']) => dir).filter((dir) => !/^(to|DIR)$/.test(dir));
      expect(dirs.length, file).toBeGreaterThan(0);
      for (const dir of dirs) expect(dir, `${file}: --data-dir ${dir}`).toMatch(/^(~\/|\/|\$)/);
    }
  });
});
