// What a simulated method answers: the first rule that applies (arguments matched as a JSON
// subset, the nth call, a share of calls), its response or error after its latency, else the
// shape real adapters return; and the rules' problems named by path.
import { describe, expect, it } from 'vitest';
import { answerOf, matchesSubset, simulationIssues } from '../../core/adapters/simulated/rules';
import { SimulatedCalls } from '../../core/adapters/simulated/instance';
import { expectedResponses, instanceOfTask, simulationNeeds } from '../../core/adapters/simulated/needs';

const call = (rules: Parameters<typeof answerOf>[2], args: Record<string, unknown>, count = 1) => answerOf('EC2', 'describeInstances', rules, { args, count }).answer;

describe('simulated method rules', () => {
  it('answers { status, code, response } when no rule applies', () => {
    expect(call([], {})).toEqual({ ok: true, value: expect.objectContaining({ status: 'success', code: 200, response: {} }) });
  });

  it('matches the arguments as a JSON subset, first rule first', () => {
    const rules = [
      { match: { filter: { region: 'eu' } }, response: { status: 'success', code: 200, response: ['eu-1'] } },
      { response: { status: 'success', code: 200, response: ['any'] } },
    ];
    expect(call(rules, { filter: { region: 'eu', extra: 1 }, other: true })).toEqual({ ok: true, value: { status: 'success', code: 200, response: ['eu-1'] } });
    expect(call(rules, { filter: { region: 'us' } })).toEqual({ ok: true, value: { status: 'success', code: 200, response: ['any'] } });
    expect(matchesSubset({ a: [1] }, { a: [1, 2] })).toBe(true);
    expect(matchesSubset({ a: [2] }, { a: [1, 2] })).toBe(false);
  });

  it('fails the nth call and a share of calls with an adapter error object', () => {
    const nth = [{ nth: 2, error: 'device busy' }];
    expect(call(nth, {}, 1).ok).toBe(true);
    expect(call(nth, {}, 2)).toEqual({ ok: false, error: { icode: 'AD.500', IAPerror: expect.objectContaining({ displayString: 'device busy', code: 500 }) } });
    const quarter = [{ share: 0.25 }];
    const failed = [1, 2, 3, 4, 5, 6, 7, 8].filter((n) => !call(quarter, {}, n).ok);
    expect(failed).toHaveLength(2);
  });

  it('counts the calls of each method of an instance and waits the rule latency', async () => {
    const calls = new SimulatedCalls({ id: 'EC2', type: 'Awsec2', properties: {}, brokers: [], groups: [], simulation: { methods: { a: { rules: [{ nth: 2, error: 'second', latencyMs: 5 }] } } } });
    expect((await calls.call('a', {})).ok).toBe(true);
    expect((await calls.call('b', {})).ok).toBe(true);
    expect((await calls.call('a', {})).ok).toBe(false);
    expect(calls.callCount('a')).toBe(2);
  });

  it('names each bad rule by its path', () => {
    expect(simulationIssues({ methods: { a: { rules: [{ nth: 0, share: 2, match: 'x' }] } } }, 'body.properties.simulation').map((i) => i.path)).toEqual([
      'body.properties.simulation.methods.a.rules.0.match',
      'body.properties.simulation.methods.a.rules.0.nth',
      'body.properties.simulation.methods.a.rules.0.share',
    ]);
  });
});

describe('what workflows need simulated', () => {
  const workflow = {
    name: 'Notify',
    tasks: {
      a1: { app: 'Msteams', name: 'createNotification', type: 'automatic', variables: { incoming: { adapter_id: '$var.job.adapterId' }, outgoing: { result: '' } } },
      b2: { app: 'Awsec2', name: 'runInstances', type: 'automatic', variables: { incoming: { adapter_id: 'AWS EC2' }, outgoing: {} } },
      c3: { app: 'MOP', name: 'RunCommandTemplate', type: 'automatic', location: 'Application', variables: { incoming: {} } },
      d4: { app: 'WorkFlowEngine', name: 'evaluation', type: 'operation', variables: { incoming: { evaluation_groups: [{ evaluations: [{ operand_1: { task: 'a1', variable: 'result' }, query: 'response', operator: '==', operand_2: { task: 'static', variable: 1 } }] }] } } },
      e5: { app: 'MOP', name: 'reattempt', type: 'automatic', variables: { incoming: {} } },
    },
  };
  const profile = { instance: () => undefined, adapterType: () => undefined, applicationRuns: (app: string, method: string) => app === 'MOP' && method === 'reattempt' };

  it('names each instance as the tasks call it, with every method they call', () => {
    const needs = simulationNeeds([workflow], profile).map((n) => ({ id: n.id, type: n.type, methods: [...n.methods] }));
    expect(needs).toEqual([
      { id: 'AWS EC2', type: 'Awsec2', methods: ['runInstances'] },
      { id: 'MOP', type: 'MOP', methods: ['RunCommandTemplate'] },
      { id: 'Msteams', type: 'Msteams', methods: ['createNotification'] },
    ]);
  });

  it('simulates the application of a manual task the console lacks, not one it has', () => {
    const manual = {
      name: 'As built',
      tasks: {
        m1: { app: 'AppArtifacts', name: 'gatherInternalGET', type: 'manual', location: 'Application', variables: { incoming: {} } },
        m2: { app: 'JsonForms', name: 'ShowJsonForm', type: 'manual', location: 'Application', variables: { incoming: {} } },
      },
    };
    const knowing = { ...profile, applicationKnown: (app: string) => app === 'JsonForms' };
    expect(simulationNeeds([manual], knowing).map((n) => ({ id: n.id, methods: [...n.methods] }))).toEqual([{ id: 'AppArtifacts', methods: ['gatherInternalGET'] }]);
  });

  it('answers what an evaluation of the workflow expects on its way to success', () => {
    expect(expectedResponses([workflow], instanceOfTask).get('Msteams\u0000createNotification')).toEqual({ status: 'success', code: 200, response: 1 });
  });

  it('reads the json-query paths the exports write: an index makes an array, a leading dot is no key, a filter sets nothing', () => {
    const evaluation = (task: string, variable: string, query: string) => ({
      app: 'WorkFlowEngine',
      name: 'evaluation',
      variables: { incoming: { evaluation_groups: [{ evaluations: [{ operand_1: { task, variable }, query, operator: '==', operand_2: { task: 'static', variable: true } }] }] } },
    });
    const show = {
      name: 'Show version',
      tasks: {
        a1: { app: 'GatewayManager', name: 'runCommand', variables: { incoming: {}, outgoing: { result: null } } },
        q1: { app: 'WorkFlowEngine', name: 'query', variables: { incoming: { query: '.result.results[0]', obj: '$var.a1.result', pass_on_null: false }, outgoing: { return_data: null } } },
        e1: evaluation('q1', 'return_data', 'success'),
        e2: evaluation('a1', 'result', 'response.items[country=NZ].ok'),
      },
    };
    expect(expectedResponses([show], instanceOfTask).get('GatewayManager\u0000runCommand')).toEqual({ status: 'success', code: 200, response: {}, result: { results: [{ success: true }] } });
  });
});
