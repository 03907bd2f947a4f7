// The shell's one mapping of status words and colours, and routes that carry any name
// the contract allows (200 characters, unicode, slashes, question marks) both ways.
import { describe, expect, it } from 'vitest';
import { jobStatus, taskStatus, levelTone } from '../../renderer/shell/status';
import { hashFor, parseHash } from '../../renderer/shell/route';
import { filtersFromRoute, filtersToParams } from '../../renderer/jobs/filters';

describe('status words and colours', () => {
  it('a running job with a manual task waiting reads "waiting for an operator"', () => {
    expect(jobStatus('running', 1)).toEqual({ word: 'waiting for an operator', tone: 'warn' });
    expect(jobStatus('running')).toEqual({ word: 'running', tone: 'running' });
    expect(jobStatus('error')).toEqual({ word: 'error', tone: 'bad' });
    expect(jobStatus('complete', 2)).toEqual({ word: 'complete', tone: 'good' });
  });
  it('a task that ended in failure is never "complete" in green', () => {
    expect(taskStatus({ status: 'complete', finishState: 'failure' })).toEqual({ word: 'failure', tone: 'warn' });
    expect(taskStatus({ status: 'complete', finishState: 'success' })).toEqual({ word: 'complete', tone: 'good' });
    expect(taskStatus({ status: 'waiting' }).word).toBe('waiting for an operator');
    expect(taskStatus({ status: 'waiting', childJob: 'c1' }).word).toBe('waiting for its child job');
    expect(levelTone('warn')).toBe('warn');
    expect(levelTone('nonsense')).toBe('unknown');
  });
});

describe('routes', () => {
  it('round-trips a 200-character unicode name with a slash and a question mark', () => {
    const name = `東京/データ?センター 🚀 ${'Ω'.repeat(100)}`.padEnd(200, 'x');
    const hash = hashFor(['workflows', name]);
    expect(hash).not.toContain('?');
    expect(parseHash(hash).segments).toEqual(['workflows', name]);
  });
  it('keeps the jobs filters in the query, and drops what it does not know', () => {
    const hash = hashFor(['jobs'], filtersToParams({ status: 'waiting', workflow: 'a&b=c', q: 'INC 1', sort: 'name', order: 'asc', from: 5 }));
    const route = parseHash(hash);
    expect(route.segments).toEqual(['jobs']);
    expect(filtersFromRoute(route)).toEqual({ status: 'waiting', workflow: 'a&b=c', q: 'INC 1', sort: 'name', order: 'asc', from: 5, to: undefined });
    expect(filtersFromRoute(parseHash('#/jobs?status=exploded&sort=colour&from=yesterday'))).toEqual({
      status: undefined, workflow: undefined, q: undefined, sort: undefined, order: undefined, from: undefined, to: undefined,
    });
  });
});
