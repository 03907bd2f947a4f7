// The drill operations over HTTP: bad input is a 400 naming the field; a lab drill whose standby
// starts with processTasksOnStart true fails its readiness check with the fix named, stops
// before any change, and is kept in the drill history with its exports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

describe('drill operations', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host?.dispose();
  });

  it('refuses a drill of 0 jobs naming the field', async () => {
    const response = await host.api('/drills/lab', { method: 'POST', json: { jobs: 0 } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('body.jobs');
  });

  it('refuses a failure a lab cannot stage, naming the field and the choices', async () => {
    const response = await host.api('/drills/lab', { method: 'POST', json: { failure: 'gone' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: { path: string; message: string }[] };
    expect(body.issues).toEqual([expect.objectContaining({ path: 'body.failure', message: expect.stringContaining('kill') })]);
  });

  it('refuses a lab drill of workflows the active profile does not have, naming them', async () => {
    const response = await host.api('/drills/lab', { method: 'POST', json: { jobs: 2, workflows: ['No such workflow', 'Nor this one'] } });
    expect(response.status).toBe(400);
    const { message } = (await response.json()) as { message: string };
    expect(message).toContain('body.workflows');
    expect(message).toContain('"No such workflow", "Nor this one"');
  });

  it('refuses a lab drill whose load runs workflows when it names none, naming body.workflows', async () => {
    const response = await host.api('/drills/lab', { method: 'POST', json: { jobs: 2, load: 'workflows' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('body.workflows: name the workflows');
  });

  it('answers 404 for a drill not in the history', async () => {
    const response = await host.api('/drills/no-such-drill');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toContain('no-such-drill');
  });

  it('a standby with processTasksOnStart true fails readiness with the fix, and the drill stops there', async () => {
    const started = await host.api('/drills/lab', { method: 'POST', json: { jobs: 5, standbyProcessTasksOnStart: true } });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    let report: { status: string; passed: boolean; error?: string; readiness: { id: string; state: string; fix?: string }[]; steps: { name: string; ok: boolean }[] };
    const deadline = Date.now() + 180_000;
    do {
      await new Promise((r) => setTimeout(r, 500));
      report = (await (await host.api(`/drills/${id}`)).json()) as typeof report;
    } while (report.status === 'running' && Date.now() < deadline);
    expect(report.status).toBe('failed');
    expect(report.passed).toBe(false);
    const item = report.readiness.find((i) => i.id === 'standby-worker')!;
    expect(item.state).toBe('fail');
    expect(item.fix).toContain('"processTasksOnStart": false');
    expect(report.error).toContain('Readiness check');
    expect(report.steps.map((s) => s.name)).not.toContain('Failure: kill -9 of the active site');

    const history = (await (await host.api('/drills')).json()) as { results: { id: string; status: string }[] };
    expect(history.results.find((r) => r.id === id)?.status).toBe('failed');
    const html = (await (await host.api(`/drills/${id}/export?format=html`)).json()) as { content: string; filename: string };
    expect(html.filename).toBe(`dr-drill-${id}.html`);
    expect(html.content).toContain('processTasksOnStart');
    const json = (await (await host.api(`/drills/${id}/export?format=json`)).json()) as { content: string };
    expect(JSON.parse(json.content)).toMatchObject({ id, passed: false, tasksLost: 0 });
  }, 200_000);
});
