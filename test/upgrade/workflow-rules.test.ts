// The workflow rules of the upgrade check read the service's export format: both
// reference forms, revert and failure transitions, stubs with a fixed outcome.
import { describe, expect, it } from 'vitest';
import { parseJsonDoc } from '../../core/upgrade/json-doc';
import { checkWorkflows } from '../../core/upgrade/rules/workflows';
import { corpus, fixtures, noteCorpusSkip } from '../support/iap';
import { scanFolder } from '../../core/upgrade';

const t = (state: string, type = 'standard') => ({ type, state });
const check = (workflow: unknown) => checkWorkflows('wf.json', parseJsonDoc('wf.json', JSON.stringify(workflow, null, 2))!);

const childJob = (variables: Record<string, unknown>) => ({
  name: 'childJob',
  app: 'WorkFlowEngine',
  type: 'operation',
  variables: { incoming: { task: '', workflow: 'Child', variables, data_array: '', transformation: '', loopType: '' }, outgoing: { job_details: null } },
});

describe('child-job rule', () => {
  const flow = (tasks: Record<string, unknown>, transitions: Record<string, unknown>) => ({ name: 'W', tasks, transitions, inputSchema: { type: 'object', properties: {}, required: ['given'] } });

  it('reads { task: "job", value } like $var.job: a job variable nothing sets is found', () => {
    const findings = check(flow({ c: childJob({ x: { task: 'job', value: 'neverSet' }, y: { task: 'job', variable: 'given', editable: false } }) }, {
      workflow_start: { c: t('success') },
      c: { workflow_end: t('success') },
    }));
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('passes variable "x", which refers to job variable "neverSet"')]);
  });

  it('takes a deliberate { task: "static", value: null } as meant, not as undefined', () => {
    const findings = check(flow({ c: childJob({ x: { task: 'static', value: null, editable: true }, y: { task: 'static', variable: '' } }) }, {
      workflow_start: { c: t('success') },
      c: { workflow_end: t('success') },
    }));
    expect(findings).toEqual([]);
  });

  it('reads { task: "<taskId>", variable } like $var.<taskId>: found when a failure path skips the task', () => {
    const tasks = {
      q: { name: 'query', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { pass_on_null: false, query: 'a', obj: {} }, outgoing: { return_data: null } } },
      e: { name: 'evaluation', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: {}, outgoing: { return_value: null } } },
      c: childJob({ id: { task: 'q', variable: 'return_data' } }),
    };
    const skipped = check(flow(tasks, { workflow_start: { e: t('success') }, e: { q: t('success'), c: t('failure') }, q: { c: t('success') }, c: { workflow_end: t('success') } }));
    expect(skipped.map((f) => f.message)).toEqual([expect.stringContaining('refers to output "return_data" of task q, and c can start without q having succeeded')]);
    const always = check(flow(tasks, { workflow_start: { e: t('success') }, e: { q: t('success') }, q: { c: t('success') }, c: { workflow_end: t('success') } }));
    expect(always).toEqual([]);
  });

  it('knows a stub ends only in its type, and a revert edge leads back to a task that ran already', () => {
    const tasks = {
      q: { name: 'query', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: {}, outgoing: { return_data: null } } },
      s: { name: 'stub', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { type: 'success', delay: '', response: '' } } },
      c: childJob({ id: '$var.q.return_data' }),
      after: { name: 'stub', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { type: 'success' } } },
    };
    const findings = check(flow(tasks, {
      workflow_start: { s: t('success') },
      s: { q: t('success'), c: t('failure') },
      q: { c: t('success') },
      c: { after: t('success') },
      after: { c: t('success', 'revert'), workflow_end: t('success') },
    }));
    expect(findings).toEqual([]);
  });
});

describe('codePointAt rule', () => {
  const cpa = { name: 'codePointAt', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: 'abc', pos: 5 }, outgoing: { codePointValue: null } } };
  const retry = { name: 'stub', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { type: 'success' } } };

  it('takes a revert error transition (a retry) as handling the error', () => {
    expect(check({ name: 'W', tasks: { a: cpa, r: retry }, transitions: { workflow_start: { r: t('success') }, r: { a: t('success') }, a: { workflow_end: t('success'), r: t('error', 'revert') } } })).toEqual([]);
  });

  it('finds a task whose only other path is a failure transition, saying a failure is not an error', () => {
    const findings = check({ name: 'W', tasks: { a: cpa, r: retry }, transitions: { workflow_start: { a: t('success') }, a: { workflow_end: t('success'), r: t('failure') }, r: {} } });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain('Its failure transition is not taken: an out-of-range position is an error, not a failure.');
  });
});

noteCorpusSkip('the upgrade check over the real exports');

describe.each([fixtures, corpus])('the upgrade check over exported pre-builts $tag', (source) => {
  it.skipIf(!source.present)('no longer reports the deliberate static nulls, and reads object references of task results', async () => {
    const report = await scanFolder(source.dir);
    expect(report.summary.filesScanned).toBeGreaterThan(0);
    const childJobs = report.findings.filter((f) => f.rule === 'child-job-undefined');
    expect(childJobs.filter((f) => f.message.includes('which is null'))).toEqual([]);
    // Every remaining warning names a task result a path of the workflow can skip.
    for (const finding of childJobs) expect(finding.message).toMatch(/can start without \w+ having succeeded/);
    expect(report.findings.filter((f) => f.rule === 'codepointat-error')).toEqual([]);
    expect(report.summary.blocked).toBe(false);
  });
});
