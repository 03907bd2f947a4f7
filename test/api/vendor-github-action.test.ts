// The vendor's GitHub Action that starts an automation and follows its job
// (github.com/itential/itential-automation-start, src/action.js, the release that calls the
// service directly with axios), replayed request for request against a real console host: its
// login form (the static token as `?token=`), `GET /health/server` to pick its routes by
// `release`, the start, and its poll of `GET /operations-manager/jobs/:id` while the job runs,
// reading `data.status` and, once complete, `data.variables` as its output. The same sequence
// runs again after the service's two other logins (`POST /login`, `POST /oauth/token`), as the
// vendor's later release of the Action and its SDKs log in.
//
// The Action starts through an Operations Manager endpoint trigger
// (`POST /operations-manager/triggers/endpoint/<api_endpoint>` with `api_endpoint_body`): the test
// makes the automation and its endpoint trigger over the API first, as an operator would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';

const WORKFLOW = 'github-action-upper';
/** The Action's `api_endpoint` input: the endpoint trigger's routeName. */
const API_ENDPOINT = 'github-action-upper';
const upper = workflow(
  WORKFLOW,
  { up: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.result' } } } },
  [
    ['workflow_start', 'up'],
    ['up', 'workflow_end'],
  ],
);

/** One request as the Action's axios call makes it, recorded for the assertions. */
interface Sent {
  method: string;
  path: string;
  status: number;
}

/** How the client holds its credential: the Action appends `?token=`; an OAuth client sends a Bearer header. */
interface Credential {
  query?: string;
  bearer?: string;
}

/**
 * The Action's run, step for step (src/action.js): inputs as it reads them, its calls in its order,
 * `setOutput('results', …)` or `setFailed(…)` at the end.
 */
async function runAction(
  base: string,
  credential: Credential,
  inputs: { api_endpoint_body: Record<string, unknown>; time_interval: number; no_of_attempts: number; automation_status: '0' | '1' },
): Promise<{ sent: Sent[]; results?: unknown; failed?: unknown }> {
  const sent: Sent[] = [];
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const url = credential.query ? `${base}${path}?token=${credential.query}` : `${base}${path}`;
    const headers: Record<string, string> = {};
    if (credential.bearer) headers.authorization = `Bearer ${credential.bearer}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    sent.push({ method, path, status: response.status });
    // axios rejects on a status outside 2xx; the Action then calls setFailed(err.response.data).
    if (!response.ok) throw Object.assign(new Error(`status ${response.status}`), { data: await response.json() });
    return { data: (await response.json()) as Record<string, unknown> };
  };

  try {
    // startAutomation: GET /health/server, then the release before its last dot picks the routes.
    const server = await call('GET', '/health/server');
    const releaseText = String(server.data.release);
    const release = releaseText.substring(0, releaseText.lastIndexOf('.'));
    if (Number(release) <= 2021.1) return { sent, failed: `the Action took the 2021.1 routes for release ${releaseText}` };

    // The Action posts api_endpoint_body to the endpoint trigger; it starts the workflow with it.
    const started = await call('POST', `/operations-manager/triggers/endpoint/${API_ENDPOINT}`, inputs.api_endpoint_body);
    const id = String((started.data.data as { _id: string })._id);
    if (!(Boolean(Number(inputs.automation_status)) === true)) return { sent, results: id };

    // automationStatus221: poll while running, with time_interval seconds between polls.
    for (let count = 0; ; count += 1) {
      const job = await call('GET', `/operations-manager/jobs/${id}`);
      const data = job.data.data as { status: string; variables: Record<string, unknown>; error?: unknown };
      if (data.status === 'running' && count < inputs.no_of_attempts) {
        await new Promise((resolve) => setTimeout(resolve, inputs.time_interval * 1000));
        continue;
      }
      if (data.status === 'complete') return { sent, results: data.variables };
      if (data.status === 'canceled') return { sent, failed: 'Automation Canceled' };
      if (data.status === 'error') return { sent, failed: data.error };
      return { sent, failed: 'Automation Timed out based upon user defined timeout and no_of_attempts' };
    }
  } catch (error) {
    return { sent, failed: (error as { data?: unknown }).data ?? String(error) };
  }
}

describe("the vendor's GitHub Action (itential-automation-start) against the console", () => {
  let host: TestHost;
  const inputs = { api_endpoint_body: { text: 'from the pipeline' }, time_interval: 0.05, no_of_attempts: 200, automation_status: '1' as const };

  beforeAll(async () => {
    host = await startTestHost();
    expect((await host.api('/workflows', { method: 'POST', json: upper })).status).toBe(201);
    const automation = await host.api('/operations-manager/automations', { method: 'POST', json: { name: 'GitHub pipeline', componentType: 'workflows', componentName: WORKFLOW } });
    expect(automation.status).toBe(200);
    const { data } = (await automation.json()) as { data: { _id: string } };
    const trigger = await host.api('/operations-manager/triggers', { method: 'POST', json: { name: 'From GitHub', type: 'endpoint', actionId: data._id, routeName: API_ENDPOINT, verb: 'POST' } });
    expect(trigger.status).toBe(200);
  });
  afterAll(() => host?.dispose());

  const expectCompleted = (run: Awaited<ReturnType<typeof runAction>>) => {
    expect(run.failed).toBeUndefined();
    expect(run.results).toMatchObject({ text: 'from the pipeline', result: 'FROM THE PIPELINE' });
    // Its requests in its order, each answered 2xx: the server facts, the start, then the polls of the job.
    expect(run.sent.slice(0, 2).map((s) => `${s.method} ${s.path}`)).toEqual(['GET /health/server', `POST /operations-manager/triggers/endpoint/${API_ENDPOINT}`]);
    const polls = run.sent.slice(2);
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((s) => s.method === 'GET' && /^\/operations-manager\/jobs\/[^/]+$/.test(s.path))).toBe(true);
    expect(run.sent.every((s) => s.status >= 200 && s.status < 300)).toBe(true);
  };

  it('with the static token as ?token= (its iap_token input): starts the workflow and reads the complete job’s variables', async () => {
    expectCompleted(await runAction(host.url, { query: host.token }, inputs));
  });

  it('with automation_status 0 it answers the job id and polls nothing', async () => {
    const run = await runAction(host.url, { query: host.token }, { ...inputs, automation_status: '0' });
    expect(run.failed).toBeUndefined();
    expect(run.results).toEqual(expect.any(String));
    expect(run.sent).toHaveLength(2);
  });

  it('after POST /login (admin, the token as password): the same sequence with the session token as ?token=', async () => {
    const login = await fetch(`${host.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { username: 'admin', password: host.token } }) });
    expect(login.status).toBe(200);
    const session = await login.text();
    expectCompleted(await runAction(host.url, { query: encodeURIComponent(session) }, inputs));
  });

  it('after POST /oauth/token (client credentials): the same sequence with the access token as Bearer', async () => {
    const answer = await fetch(`${host.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'github-actions', client_secret: host.token }).toString(),
    });
    expect(answer.status).toBe(200);
    const { access_token: accessToken } = (await answer.json()) as { access_token: string };
    expectCompleted(await runAction(host.url, { bearer: accessToken }, inputs));
  });

  it('with a wrong token it fails on its first request, as the Action reports it (setFailed with the answer)', async () => {
    const run = await runAction(host.url, { query: 'not-the-token-000' }, inputs);
    expect(run.sent).toEqual([{ method: 'GET', path: '/health/server', status: 401 }]);
    expect(run.failed).toMatchObject({ statusCode: 401 });
  });
});
