import { describe, expect, it } from 'vitest';
import { BundleError, readBundle } from '../../core/projects/read';
import { kindOf } from '../../core/projects/kinds';
import { resolveProjectNames } from '../../core/projects/resolve';

const wf = (name: string) => ({ name, tasks: {}, transitions: {} });

describe('readBundle', () => {
  it('reads a manifest with its bundles/ files, in a folder picked with its own name', () => {
    const bundle = readBundle([
      { path: 'Pre/manifest.json', content: { bundleName: 'Pre', artifacts: [{ id: 'A', name: 'A', type: 'workflow', location: '/bundles/workflows/A.json' }] } },
      { path: 'Pre/bundles/workflows/A.json', content: wf('A') },
    ]);
    expect(bundle).toMatchObject({ format: 'prebuilt', name: 'Pre', artifacts: [{ kind: 'workflow', name: 'A', source: 'Pre/bundles/workflows/A.json', data: wf('A') }] });
  });

  it('takes the documents artifact.json carries inline when the files are not there', () => {
    const bundle = readBundle([
      {
        path: 'artifact.json',
        content: {
          metadata: { name: '@scope/pre' },
          manifest: { bundleName: 'Pre', artifacts: [{ name: 'T', type: 'transformation', location: '/bundles/transformations/T.json' }] },
          bundles: [{ type: 'transformation', data: { _id: 'abc', name: 'T' } }],
        },
      },
    ]);
    expect(bundle.artifacts).toEqual([{ kind: 'transformation', type: 'transformation', name: 'T', data: { _id: 'abc', name: 'T' }, source: 'artifact.json (bundles)' }]);
  });

  it('finds files picked one by one (no folders) by their name when it is unique', () => {
    const bundle = readBundle([
      { path: 'manifest.json', content: { artifacts: [{ name: 'A', type: 'json-forms', location: '/bundles/json_forms/A form.json' }] } },
      { path: 'A form.json', content: { name: 'A' } },
    ]);
    expect(bundle.artifacts[0]).toMatchObject({ kind: 'json_form', data: { name: 'A' } });
  });

  it('reads a project export, and says plainly when the files are neither', () => {
    const bundle = readBundle([{ path: 'x.project.json', content: { _id: 'p1', name: 'P', components: [{ type: 'mopCommandTemplate', document: { name: 'M' } }] } }]);
    expect(bundle).toMatchObject({ format: 'project', name: 'P', projectId: 'p1', artifacts: [{ kind: 'mop_template', name: 'M' }] });
    expect(() => readBundle([{ path: 'a.json', content: [] }])).toThrow(BundleError);
  });
});

describe('artifact kinds and project references', () => {
  it('maps the manifest and project names of each kind to one kind', () => {
    expect(['json-forms', 'jsonForm'].map(kindOf)).toEqual(['json_form', 'json_form']);
    expect(['mop-template', 'mopCommandTemplate'].map(kindOf)).toEqual(['mop_template', 'mop_template']);
    expect(kindOf('somethingElse')).toBeUndefined();
  });

  it('rewrites @<projectId>: Name only for names the bundle carries', () => {
    const doc = { a: '@0123456789abcdef01234567: Child', b: ['@0123456789abcdef01234567: Elsewhere'], c: { d: '@0123456789abcdef01234567: Child' } };
    expect(resolveProjectNames(doc, new Set(['Child']))).toBe(2);
    expect(doc).toEqual({ a: 'Child', b: ['@0123456789abcdef01234567: Elsewhere'], c: { d: 'Child' } });
  });
});
