// The installer's app.asar, built without an Electron binary: the files electron-builder.yml's
// `files` select plus the production dependencies (as electron-builder adds them), packed with
// @electron/asar and `asarUnpack` applied. Every module the main bundle, the preload and the
// adapter runner (with the shipped adapters) load at run time must be inside or unpacked, and
// no development dependency may be.
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, globSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createPackageFromStreams, extractFile, listPackage, statFile, type AsarStreamType } from '@electron/asar';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const builder = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as { files: string[]; asarUnpack: string[]; electronVersion?: string };
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
// node:sqlite and other prefix-only modules are not in builtinModules: any node: request is Node's own.
const builtinList = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const builtins = { has: (request: string) => request.startsWith('node:') || builtinList.has(request) };

/** Where Node would find package `name` from folder `from` (relative to root), walking up node_modules. */
function resolvePackageDir(name: string, from: string, exists: (relative: string) => boolean): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = path.posix.join(dir, 'node_modules', name);
    if (exists(path.posix.join(candidate, 'package.json'))) return candidate;
    if (dir === '' || dir === '.') return undefined;
    const parent = path.posix.dirname(dir);
    dir = parent === '.' ? '' : parent;
  }
}

/** The production dependency closure, as package folders relative to root (electron-builder packs these). */
function productionPackages(): Set<string> {
  const found = new Set<string>();
  const onDisk = (relative: string) => existsSync(path.join(root, relative));
  const visit = (names: string[], from: string) => {
    for (const name of names) {
      const dir = resolvePackageDir(name, from, onDisk);
      if (!dir || found.has(dir)) continue;
      found.add(dir);
      const manifest = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
      visit([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})], dir);
    }
  };
  visit(Object.keys(pkg.dependencies), '');
  return found;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.name === 'node_modules') continue; // nested packages are visited on their own
    if (entry.isDirectory()) out.push(...filesUnder(relative));
    else if (entry.isFile()) out.push(relative);
  }
  return out;
}

/** Module names a file asks for with a static string: require() in CommonJS, import in ES modules. */
function requiredModules(code: string, file: string): string[] {
  const pattern = file.endsWith('.mjs')
    ? /^\s*import\s*(?:[^'"]*?\sfrom\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm
    : /\brequire\(\s*["']([^"']+)["']\s*\)/g;
  return [...new Set([...code.matchAll(pattern)].map((match) => (match[1] ?? match[2])!))];
}

const packageName = (request: string) => (request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0]!);

let outDir: string;
let archive: string;
let listed: Set<string>;
let production: Set<string>;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['scripts/build-main.mjs'], { cwd: root });
  const selected = new Set<string>();
  for (const pattern of builder.files) {
    for (const file of globSync(pattern, { cwd: root })) if (lstatSync(path.join(root, file)).isFile()) selected.add(file.split(path.sep).join('/'));
  }
  production = productionPackages();
  for (const dir of production) for (const file of filesUnder(dir)) selected.add(file);

  const unpack = (file: string) => {
    let result = false;
    for (const pattern of builder.asarUnpack) {
      if (pattern.startsWith('!')) {
        if (path.posix.matchesGlob(file, pattern.slice(1))) result = false;
      } else if (path.posix.matchesGlob(file, pattern)) result = true;
    }
    return result;
  };
  const directories = new Set<string>();
  for (const file of selected) for (let d = path.posix.dirname(file); d !== '.'; d = path.posix.dirname(d)) directories.add(d);
  const streams: AsarStreamType[] = [
    ...[...directories].sort().map((dir) => ({ type: 'directory' as const, path: dir, unpacked: false })),
    ...[...selected].sort().map((file) => ({
      type: 'file' as const,
      path: file,
      unpacked: unpack(file),
      stat: lstatSync(path.join(root, file)),
      streamGenerator: () => createReadStream(path.join(root, file)),
    })),
  ];
  outDir = await mkdtemp(path.join(os.tmpdir(), 'console-asar-'));
  archive = path.join(outDir, 'app.asar');
  await createPackageFromStreams(archive, streams);
  listed = new Set(listPackage(archive, { isPack: false }).map((p) => p.replace(/^[\\/]/, '').split(path.sep).join('/')));
}, 180_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

const inArchive = (relative: string) => listed.has(relative);

/** Every package `requests` from `from` needs, and what each needs in turn, must be packed. */
function missingFrom(requests: string[], from: string): string[] {
  const missing: string[] = [];
  const seen = new Set<string>();
  const visit = (names: string[], at: string, who: string) => {
    for (const name of names) {
      const dir = resolvePackageDir(name, at, inArchive);
      if (!dir) {
        missing.push(`${name} (needed by ${who})`);
        continue;
      }
      if (seen.has(dir)) continue;
      seen.add(dir);
      const manifest = JSON.parse(extractFile(archive, `${dir}/package.json`).toString('utf8'));
      visit(Object.keys(manifest.dependencies ?? {}), dir, name);
    }
  };
  const packages = [...new Set(requests.filter((r) => !builtins.has(r) && !r.startsWith('.') && r !== 'electron').map(packageName))];
  visit(packages, from, from);
  return missing;
}

describe('app.asar as electron-builder packs it', () => {
  it('holds the main bundle package.json points at, and the UI', () => {
    expect(inArchive('package.json')).toBe(true);
    expect(inArchive('dist/main/main.cjs')).toBe(true);
    expect(inArchive('dist/main/preload.cjs')).toBe(true);
  });

  it('holds every module the main bundle requires at run time, with their dependencies', () => {
    const requests = requiredModules(extractFile(archive, 'dist/main/main.cjs').toString('utf8'), 'main.cjs');
    const external = requests.filter((r) => !builtins.has(r) && r !== 'electron');
    expect(external.length).toBeGreaterThan(0);
    expect(missingFrom(requests, 'dist/main')).toEqual([]);
  });

  it('gives the sandboxed preload nothing to load but electron', () => {
    const requests = requiredModules(extractFile(archive, 'dist/main/preload.cjs').toString('utf8'), 'preload.cjs');
    expect(requests.filter((r) => r !== 'electron')).toEqual([]);
  });

  it('unpacks the adapter runner and the shipped adapters, whose modules are all there', () => {
    const unpackedRoot = `${archive}.unpacked`;
    for (const file of ['core/adapters/runner.cjs', 'core/adapters/stub.cjs', ...[...listed].filter((f) => f.startsWith('adapters/') && /\.(c|m)?js$/.test(f))]) {
      expect((statFile(archive, file) as { unpacked?: boolean }).unpacked, `${file} is unpacked`).toBe(true);
      expect(existsSync(path.join(unpackedRoot, file)), `${file} beside the archive`).toBe(true);
      const requests = requiredModules(readFileSync(path.join(unpackedRoot, file), 'utf8'), file);
      expect(missingFrom(requests, path.posix.dirname(file)), `modules of ${file}`).toEqual([]);
    }
  });

  it('holds no development dependency, test, benchmark or TypeScript source', () => {
    const productionNames = new Set([...production].map((dir) => dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length)));
    const devOnly = Object.keys(pkg.devDependencies).filter((name) => !productionNames.has(name));
    expect(devOnly).toEqual(expect.arrayContaining(['electron', 'electron-builder', 'vitest', '@playwright/test']));
    const packed = devOnly.filter((name) => [...listed].some((f) => f.startsWith(`node_modules/${name}/`)));
    expect(packed).toEqual([]);
    const sources = [...listed].filter((f) => /^(test|bench|scripts|renderer|main)\//.test(f) || (/^core\//.test(f) && f.endsWith('.ts')));
    expect(sources).toEqual([]);
  });
});

describe('the Node baseline', () => {
  it('is what the builder\'s Electron ships: electronVersion is the installed Electron, whose Node satisfies engines', () => {
    const electron = JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')) as {
      version: string;
      dependencies: Record<string, string>;
    };
    expect(builder.electronVersion).toBe(electron.version);
    // Electron declares the Node typings of the Node it embeds.
    const nodeMajor = Number(/(\d+)/.exec(electron.dependencies['@types/node']!)![1]);
    const baseline = /^>=\s*(\d+)\.(\d+)$/.exec(pkg.engines.node);
    expect(baseline, `engines.node "${pkg.engines.node}" is ">=MAJOR.MINOR"`).not.toBeNull();
    const [, major, minor] = baseline!.map(Number);
    expect([major, minor]).toEqual([22, 13]);
    // A newer major of Node than the baseline's carries everything the baseline has (node:sqlite).
    expect(nodeMajor).toBeGreaterThanOrEqual(major!);
    const [runMajor, runMinor] = process.versions.node.split('.').map(Number);
    expect(runMajor! > major! || (runMajor === major && runMinor! >= minor!)).toBe(true);
  });
});
