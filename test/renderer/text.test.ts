// The texts the pages write (issue 42): dates in local time and "unknown" for none, JSON mistakes
// named by line, a simulated instance's label, a job history's who and what, the log's time filter,
// the Health timeline's parts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { instantOf, localDateTime, localizeTimestamps } from '../../renderer/shell/dates';
import { jsonProblem, lineAndColumn } from '../../renderer/adapters/json-problem';
import { packageLabel } from '../../renderer/adapters/package-label';
import { whatOf, whoOf } from '../../renderer/jobs/JobHistory';
import { substituteViewData } from '../../renderer/jobs/format';
import { instantFromLocal } from '../../renderer/logs/tail';
import { segmentsOf } from '../../renderer/health/StateTimeline';

describe('dates', () => {
  it('writes a date in local time, and "unknown" for none, an unreadable one or the epoch an export without dates becomes', () => {
    const at = Date.UTC(2026, 10, 28, 0, 54, 1);
    expect(localDateTime(at)).toBe(new Date(at).toLocaleString());
    expect(localDateTime(new Date(at).toISOString())).toBe(new Date(at).toLocaleString());
    for (const none of [undefined, null, '', 'not a date', 0, '1970-01-01T00:00:00.000Z']) expect(localDateTime(none)).toBe('unknown');
    expect(localDateTime(undefined, '—')).toBe('—');
    expect(instantOf('1970-01-01T00:00:00.000Z')).toBeUndefined();
  });

  it('writes the ISO timestamps inside a text in local time', () => {
    const iso = '2026-11-28T00:54:01.096Z';
    expect(localizeTimestamps(`stopped at ${iso}`)).toBe(`stopped at ${new Date(iso).toLocaleString()}`);
    expect(localizeTimestamps('no date here, 2026 only')).toBe('no date here, 2026 only');
  });
});

describe('JSON mistakes by line', () => {
  it('names the line and column of the first mistake', () => {
    expect(jsonProblem('{ "a": 1 }')).toBeUndefined();
    expect(jsonProblem('{\n  "a": 1\n  "b": 2\n}')).toMatchObject({ line: 3, column: 3 });
    expect(jsonProblem('{\n  "methods": {}\n  ,\n}')?.message).toMatch(/^line 4, column 1: /);
    expect(jsonProblem('[1,')?.message).toMatch(/^line 1, column 4: /);
  });

  it('finds the line and column of any offset', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', ' ', '{') , maxLength: 10 }), { minLength: 1, maxLength: 6 }), fc.nat(), (lines, pick) => {
        const text = lines.join('\n');
        const line = pick % lines.length;
        const column = lines[line]!.length === 0 ? 0 : pick % (lines[line]!.length + 1);
        const offset = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + column;
        expect(lineAndColumn(text, offset)).toEqual({ line: line + 1, column: column + 1 });
      }),
    );
  });
});

describe('labels', () => {
  const pkg = { name: 'simulated:Gitlab', export: 'Gitlab', title: 'Gitlab', version: 'simulated', source: 'simulated' as const, dir: '', methodCount: 2 };
  it('names a simulated instance plainly, and a real package by name, version and folder', () => {
    expect(packageLabel(pkg)).toBe('Simulated Gitlab (answers by its rules, not a live system; 2 methods)');
    expect(packageLabel({ ...pkg, name: '@itentialopensource/adapter-gitlab', version: '1.2.3', source: 'data-dir', dir: '/data/adapters/gitlab' })).toBe(
      '@itentialopensource/adapter-gitlab 1.2.3 (data directory: /data/adapters/gitlab)',
    );
    expect(packageLabel(undefined)).toBe('no package');
  });

  it("says who did a job history's entry and what, an edit's changes one per line", () => {
    const retried = { timestamp: 1, event: 'task-retry-changed', message: 'ann changed job variable s from "x" to "xy" and retried task cp', operator: 'ann', taskId: 'cp', changes: ['job variable s from "x" to "xy"'] };
    expect(whoOf(retried)).toBe('ann');
    expect(whatOf(retried)).toEqual({ title: 'Changed values and retried', lines: ['changed job variable s from "x" to "xy"', 'retried task cp'] });
    const recovered = { timestamp: 1, event: 'start-recovered', message: 'the start was finished by another server', serverId: 'b' };
    expect(whoOf(recovered)).toBe('console b');
    expect(whatOf(recovered)).toEqual({ title: 'Start recovered', lines: ['the start was finished by another server'] });
    expect(whatOf({ timestamp: 1, event: 'some-new-event', message: 'm' }).title).toBe('Some new event');
  });
});

describe('the log time filter and the Health timeline', () => {
  it("reads a datetime-local field's value as the instant the log route takes", () => {
    expect(instantFromLocal('')).toBeUndefined();
    expect(instantFromLocal('2026-11-28T01:02:03')).toBe(new Date(2026, 10, 28, 1, 2, 3).toISOString());
    expect(instantFromLocal('soon')).toBeUndefined();
  });

  it('splits a history into parts that cover the strip in order, the last up to now', () => {
    const t = Date.UTC(2026, 10, 28, 1, 0, 0);
    const at = (s: number) => new Date(t + s * 1000).toISOString();
    const parts = segmentsOf([{ at: at(0), state: 'RUNNING', connection: 'ONLINE' }, { at: at(30), state: 'DEAD' }, { at: at(45), state: 'RUNNING', connection: 'DEGRADED' }], t + 60_000);
    expect(parts.map((p) => [p.from, p.to])).toEqual([
      [0, 0.5],
      [0.5, 0.75],
      [0.75, 1],
    ]);
    expect(parts.map((p) => p.label.split(' since ')[0])).toEqual(['RUNNING', 'DEAD', 'RUNNING, DEGRADED']);
  });
});

describe("ViewData's body", () => {
  it('has each <!name!> replaced by its variable (objects as JSON), and keeps one the variables lack as written', () => {
    expect(substituteViewData('Now: <!now!>; devices <!list!>; <!missing!>', { now: '10:00', list: ['r1'] })).toBe('Now: 10:00; devices ["r1"]; <!missing!>');
    expect(substituteViewData('n=<!n!> <!b!>', { n: 3, b: false })).toBe('n=3 false');
    for (const none of [undefined, null, '', ['x'], 'text']) expect(substituteViewData('<!a!>', none)).toBe('<!a!>');
    // A name that only a prototype has is no variable.
    expect(substituteViewData('<!toString!>', {})).toBe('<!toString!>');
  });
});
