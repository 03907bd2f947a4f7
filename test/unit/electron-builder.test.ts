// The installer configuration, validated against electron-builder's own schema.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const schema = require('app-builder-lib/scheme.json');
const config = parse(readFileSync('electron-builder.yml', 'utf8'));

describe('electron-builder.yml', () => {
  it('is valid for electron-builder', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('builds AppImage and deb for Linux, NSIS for Windows and dmg for macOS', () => {
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.win.target).toContain('nsis');
    expect(config.mac.target).toContain('dmg');
  });

  it('turns off the fuses that let others run code inside the app', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('packages the built app that package.json points at', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.main).toBe('dist/main/main.cjs');
    expect(config.files).toContain('dist/**/*');
  });

  it('rejects a configuration with a misspelled key (the schema is really applied)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    expect(ajv.validate(schema, { ...config, linnux: {} })).toBe(false);
  });
});
