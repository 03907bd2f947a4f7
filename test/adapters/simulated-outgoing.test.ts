// Where a simulated answer lands. Oracle: the service's own exports (its Command Template Runner
// workflow, whose MOP RunCommandTemplate task declares `mop_template_results`, written inline here:
// nothing is read from the shared corpus, so a clone alone runs every test of this file) and
// pronghorn.json's `output.name`: the real method's answer is the task's declared outgoing
// variable, so a simulated one's is too; never `result` whatever the task declares.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { answerVariables } from '../../core/engine/jobs/execute';
import { SimulatedCalls, simulatedPackage } from '../../core/adapters/simulated/instance';
import { simulationIssues, simulationOf } from '../../core/adapters/simulated/rules';
import { rulesFromRecording } from '../../core/adapters/simulated/recordings';
import { expectedResponses, instanceOfTask } from '../../core/adapters/simulated/needs';
import { startTestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { waitFor } from './support';

const task = (outgoing?: Record<string, unknown>) => ({ name: 'RunCommandTemplate', app: 'MOP', variables: { incoming: {}, ...(outgoing ? { outgoing } : {}) } });

describe('the outgoing variables a simulated answer lands in', () => {
  it("a simulated method of unknown schema: the task's declared variable (MOP RunCommandTemplate's mop_template_results)", () => {
    expect(answerVariables(task({ mop_template_results: '$var.job.templateResults' }), { output: 'result', simulated: 'MOP' })).toEqual(['mop_template_results']);
    expect(answerVariables(task({ renderedTemplate: null, stdout: null }), { output: 'result', simulated: 'X' })).toEqual(['renderedTemplate', 'stdout']);
    expect(answerVariables(task({ result: null, other: null }), { output: 'result', simulated: 'X' })).toEqual(['result']);
    expect(answerVariables(task({}), { output: 'result', simulated: 'X' })).toEqual(['result']);
    expect(answerVariables(task(), { output: 'result', simulated: 'X' })).toEqual(['result']);
  });

  it("a method whose pronghorn.json names its output: that name, simulated or real, whatever the task declares", () => {
    expect(answerVariables(task({ stdout: null }), { output: 'renderedTemplate', simulated: 'X', outputDeclared: true })).toEqual(['renderedTemplate']);
    expect(answerVariables(task({ stdout: null }), { output: 'renderedTemplate' })).toEqual(['renderedTemplate']);
  });

  it('a simulation keeps each method\'s output name, checks it, and its package declares it', async () => {
    const config = { id: 'T', type: 'Templates', properties: {}, brokers: [], groups: [], simulation: { methods: { render: { output: 'renderedTemplate', rules: [{ response: 'x' }] }, other: {} } } };
    const simulation = simulationOf(config)!;
    expect(simulation.methods.render).toEqual({ output: 'renderedTemplate', rules: [{ response: 'x' }] });
    expect(simulatedPackage(config, simulation).methods.map((m) => [m.name, m.output?.name])).toEqual([['other', 'result'], ['render', 'renderedTemplate']]);
    const calls = new SimulatedCalls(config);
    expect([calls.output('render'), calls.output('other')]).toEqual(['renderedTemplate', undefined]);
    expect(await calls.call('render', {})).toEqual({ ok: true, value: 'x' });
    expect(simulationIssues({ methods: { render: { output: 3 } } }, 'body.simulation').map((i) => i.path)).toEqual(['body.simulation.methods.render.output']);
  });

  it('a recording keeps the real method\'s output name, and the simulated instance made from it answers there', () => {
    const call = { at: 0, method: 'getStdout', args: {}, ok: true, answer: 'ok', durationMs: 1, output: 'stdout' };
    expect(rulesFromRecording({ _id: 'r', adapter: 'a', type: 'T', startedAt: 0, until: 0, maxCalls: 9, calls: [call] }).getStdout).toEqual({ output: 'stdout', rules: [{ match: {}, latencyMs: 1, response: 'ok' }, { latencyMs: 1, response: 'ok' }] });
  });

  it('what an evaluation expects of a declared variable is answered there (a polling loop ends as against a live system)', () => {
    const flow = {
      name: 'Poll',
      tasks: {
        run: task({ mop_template_results: '$var.job.templateResults' }),
        check: {
          app: 'WorkFlowEngine',
          name: 'evaluation',
          variables: { incoming: { evaluation_groups: [{ evaluations: [{ operand_1: { task: 'run', variable: 'mop_template_results' }, query: 'all_pass_flag', operator: '==', operand_2: { task: 'static', variable: true } }] }] } },
        },
      },
    };
    expect(expectedResponses([flow], instanceOfTask).get('MOP\u0000RunCommandTemplate')).toMatchObject({ all_pass_flag: true });
  });
});

describe('a job calling a simulated MOP RunCommandTemplate', () => {
  it('gets the answer in mop_template_results and the job variable the task maps it to, a rule\'s answer likewise', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-simulated-outgoing-'));
    try {
      await writeJsonAtomic(propertiesFile(dataDir, 'lab'), { id: 'lab', processTasksOnStart: true });
      const host = await startTestHost({ dataDir });
      try {
        const api = async (pathname: string, init?: Parameters<typeof host.api>[1]) => {
          const response = await host.api(pathname, init);
          return { status: response.status, body: await response.json() };
        };
        const flow = workflow(
          'Command Template Runner (simulated)',
          { run: { name: 'RunCommandTemplate', app: 'MOP', variables: { incoming: { template: 'show version', devices: ['edge-1'] }, outgoing: { mop_template_results: '$var.job.templateResults' } } } },
          [['workflow_start', 'run'], ['run', 'workflow_end']],
        );
        expect((await api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
        expect((await api('/adapters/simulate', { method: 'POST', json: { workflows: [flow.name] } })).status).toBe(200);
        const runJob = async () => {
          const started = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: flow.name, options: { variables: {} } } });
          expect(started.status).toBe(200);
          return waitFor(async () => {
            const { body } = await api(`/operations-manager/jobs/${started.body.data._id}`);
            return ['complete', 'error', 'canceled'].includes(body.data.status) && body.data;
          }, 'the job to end');
        };
        const first = await runJob();
        expect(first.status).toBe('complete');
        expect(first.variables.templateResults).toMatchObject({ status: 'success', code: 200 });
        expect(first.taskRuns.find((t: { taskId: string }) => t.taskId === 'run')).toMatchObject({ simulated: 'MOP', outgoing: { mop_template_results: { status: 'success' } } });

        const { body: config } = await api('/adapters/MOP/export');
        const rules = [{ response: { all_pass_flag: true, devices: { 'edge-1': { all_pass_flag: true } } } }];
        const put = await api('/adapters/MOP/properties', { method: 'PUT', json: { properties: { ...config, simulation: { ...config.simulation, methods: { RunCommandTemplate: { rules } } } } } });
        expect(put.status).toBe(200);
        const second = await runJob();
        expect(second.variables.templateResults).toEqual(rules[0]!.response);
      } finally {
        await host.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
