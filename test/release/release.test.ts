import { describe, expect, it } from 'vitest';
import {
  checkPolicy,
  compareReleases,
  deprecationTable,
  findApiRow,
  findApiRowInUrl,
  lifecycleAt,
  parseRelease,
  releaseCyclesBetween,
  RUNNING_RELEASE,
  type LifecycleRow,
} from '../../core/release';

const row = (id: string) => deprecationTable.find((r) => r.id === id)!;

describe('release labels', () => {
  it('parses feature and maintenance releases', () => {
    expect(parseRelease('2022.1')).toEqual({ year: 2022, number: 1, text: '2022.1' });
    expect(parseRelease('2021.1.10')).toEqual({ year: 2021, number: 1, maintenance: 10, text: '2021.1.10' });
  });

  it.each(['2022', '2022.', '22.1', '2022.1.', 'v2022.1', '2022.0', '2022.1.2.3', 'latest', ''])(
    'rejects %j naming the label and the expected form',
    (text) => {
      expect(() => parseRelease(text)).toThrow(`malformed release label ${JSON.stringify(text)}`);
      expect(() => parseRelease(text)).toThrow(/year\.number \(for example 2022\.1\) or year\.number\.number/);
    },
  );

  it('orders releases numerically, maintenance releases after their feature release', () => {
    const sorted = ['2022.1', '2021.2.4', '2021.1.10', '2021.1', '2021.1.9', '2021.2', '2020.1'].sort(compareReleases);
    expect(sorted).toEqual(['2020.1', '2021.1', '2021.1.9', '2021.1.10', '2021.2', '2021.2.4', '2022.1']);
    expect(compareReleases('2022.1', '2022.1')).toBe(0);
    expect(() => compareReleases('2022.1', '2022-1')).toThrow('"2022-1"');
  });

  it('counts release cycles as two feature releases a year', () => {
    expect(releaseCyclesBetween('2021.1', '2022.1')).toBe(2);
    expect(releaseCyclesBetween('2021.2', '2023.1')).toBe(3);
    expect(releaseCyclesBetween('2021.2', '2022.1')).toBe(1);
    expect(releaseCyclesBetween('2021.1.10', '2021.2')).toBe(1);
    expect(() => releaseCyclesBetween('2021.3', '2022.1')).toThrow('2021.3 cannot be counted');
  });
});

describe('the deprecation table of section 9.1', () => {
  it('holds the three rows as the release notes give them', () => {
    expect(RUNNING_RELEASE).toBe('2022.1');
    expect(deprecationTable.map((r) => [r.item, r.deprecated, r.removal])).toEqual([
      ['activate (service_config property)', '2021.1', '2022.1'],
      ['GET /admin/services/health', '2021.2', '2023.1'],
      ['npm run index (indexing script)', undefined, '2022.1'],
    ]);
    expect(row('admin-services-health').removalNote).toBe('stated as the actual removal release');
    expect(row('activate').replacements).toEqual([{ text: 'processTasksOnStart (properties.json)' }]);
    expect(row('npm-run-index').replacements[0]).toMatchObject({ method: 'POST', path: '/indexes/:collectionName' });
  });
});

describe('policy check', () => {
  it('reports npm run index for lacking a deprecation release, and nothing else in 9.1', () => {
    const findings = checkPolicy(deprecationTable);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rowId: 'npm-run-index', problem: 'no-deprecation-release' });
    expect(findings[0]!.message).toContain('npm run index (indexing script) is removed in 2022.1 with no deprecation release');
  });

  it('reports a row with less than two cycles of notice, or removal before deprecation', () => {
    const base: LifecycleRow = { id: 'x', item: 'GET /x', kind: 'api', description: '', removal: '2022.1', replacements: [], sections: [] };
    const findings = checkPolicy([
      { ...base, id: 'short', deprecated: '2021.2' },
      { ...base, id: 'exact', deprecated: '2021.1' },
      { ...base, id: 'backwards', deprecated: '2022.2' },
      { ...base, id: 'bad', deprecated: '2021-1' },
    ]);
    expect(findings.map((f) => [f.rowId, f.problem])).toEqual([
      ['short', 'too-short-notice'],
      ['backwards', 'removal-before-deprecation'],
      ['bad', 'malformed-release'],
    ]);
    expect(findings[0]!.message).toContain('1 release cycle of notice, the policy needs at least 2');
  });
});

describe('lifecycle at a release', () => {
  it('answers each row at the running release', () => {
    expect(lifecycleAt(row('activate'), RUNNING_RELEASE)).toMatchObject({ state: 'removed', deprecated: '2021.1', removal: '2022.1' });
    const health = lifecycleAt(row('admin-services-health'), RUNNING_RELEASE);
    expect(health).toMatchObject({ state: 'deprecated', deprecated: '2021.2', removal: '2023.1' });
    expect(health.replacements.map((r) => r.text)).toEqual(['GET /health/adapters', 'GET /health/applications']);
    expect(lifecycleAt(row('npm-run-index'), RUNNING_RELEASE).state).toBe('removed');
  });

  it('moves through active, deprecated and removed', () => {
    const health = row('admin-services-health');
    expect(lifecycleAt(health, '2021.1.10').state).toBe('active');
    expect(lifecycleAt(health, '2021.2').state).toBe('deprecated');
    expect(lifecycleAt(health, '2022.2.3').state).toBe('deprecated');
    expect(lifecycleAt(health, '2023.1').state).toBe('removed');
    expect(lifecycleAt(row('npm-run-index'), '2021.2').state).toBe('active');
  });
});

describe('finding API rows', () => {
  it('finds by method and path, ignoring case of the method, query and trailing slash', () => {
    expect(findApiRow('GET', '/admin/services/health')?.id).toBe('admin-services-health');
    expect(findApiRow('get', '/admin/services/health/?x=1')?.id).toBe('admin-services-health');
    expect(findApiRow('POST', '/admin/services/health')).toBeUndefined();
    expect(findApiRow('GET', '/health/adapters')).toBeUndefined();
    expect(findApiRow('GET', '/api/admin/services/health')).toBeUndefined();
  });

  it('finds a row inside a full URL with any base', () => {
    expect(findApiRowInUrl(undefined, 'http://host:3000/api/admin/services/health')?.id).toBe('admin-services-health');
    expect(findApiRowInUrl(undefined, '/admin/services/healthy')).toBeUndefined();
  });
});
