// The pre-builts rehearsed offline, as an operator does it over the API: every pre-built imported,
// POST /adapters/simulate {"all":true} for what the profile lacks, then every workflow started with
// variables made from its inputSchema. None may be refused for a missing part or answer 5xx, at
// least 90 % must end (complete, or an error naming the task and its cause) or wait for an
// operator, and none may be left running with nothing to do. The project's own pre-built runs
// anywhere; the shared corpus when it is there.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { corpus, fixtures, noteCorpusSkip, type IapSource } from '../support/iap';
import type { ImportRun } from '../../core/contract/projects';
import { jobErrorText } from '../../core/engine/jobs/job-error';

noteCorpusSkip('rehearsing the real pre-builts on simulated adapters');

type Schema = { type?: unknown; required?: string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; default?: unknown; minItems?: number; minLength?: number; format?: string };

/** A value that fits a schema, as an operator fills the start form: defaults, the first choice, else a plain one of the type. */
function fromSchema(schema: Schema | undefined): unknown {
  if (!schema) return 'sample';
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'array') return schema.minItems ? Array.from({ length: schema.minItems }, () => fromSchema(schema.items)) : [];
  if (type === 'object' || schema.properties) return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fromSchema(s)]));
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return false;
  if (schema.format === 'ipv4') return '192.0.2.1';
  if (schema.format === 'email') return 'operator@example.com';
  return 'sample'.padEnd(schema.minLength ?? 0, 'x');
}

async function importFolder(host: TestHost, folder: string) {
  const start = await host.api('/projects/imports/path', { method: 'POST', json: { path: folder } });
  expect(start.status).toBe(202);
  let run = (await start.json()) as ImportRun;
  for (let i = 0; i < 600 && run.state === 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    run = (await (await host.api(`/projects/imports/${run.id}`)).json()) as ImportRun;
  }
  expect(run.state, `import of ${folder}`).toBe('done');
}

type Summary = { _id: string; name: string; status: string; error?: string; operatorTasks?: number; simulated?: boolean };

function rehearse(source: IapSource) {
  describe.skipIf(!source.present)(`${source.tag} pre-builts rehearsed on simulated adapters`, () => {
    let host: TestHost;
    beforeAll(async () => {
      host = await startTestHost();
    }, 60_000);
    afterAll(() => host?.dispose());

    it('imports, simulates what is missing and starts every workflow: none refused, at least 90 % ended or waiting', async () => {
      for (const folder of readdirSync(source.prebuiltsDir).sort()) await importFolder(host, path.join(source.prebuiltsDir, folder));
      const simulate = await host.api('/adapters/simulate', { method: 'POST', json: { all: true } });
      expect(simulate.status).toBe(200);
      const made = (await simulate.json()) as { results: { id: string; mode: string; methods: string[] }[]; problems: string[] };
      expect(made.problems).toEqual([]);
      expect(made.results.length).toBeGreaterThan(0);
      if (source === fixtures) {
        // As an operator does on the adapter's page: the instance status the polling loop waits for.
        const aws = (await (await host.api('/adapters/Awsec2/export')).json()) as { simulation: { methods: Record<string, unknown> } };
        const running = { status: 'success', code: 200, response: { DescribeInstanceStatusResponse: { instanceStatusSet: { item: [{ instanceState: { name: 'running' }, instanceStatus: { status: 'ok' } }] } } } };
        aws.simulation.methods.describeInstanceStatus = { rules: [{ response: running }] };
        expect((await host.api('/adapters/Awsec2/properties', { method: 'PUT', json: { properties: aws } })).status).toBe(200);
      }

      const workflows = ((await (await host.api('/workflows?limit=500')).json()) as { items: { name: string; missing?: unknown[] }[] }).items;
      expect(workflows.filter((w) => w.missing?.length).map((w) => `${w.name}: ${JSON.stringify(w.missing)}`)).toEqual([]);
      const refused: string[] = [];
      const started: string[] = [];
      for (const { name } of workflows) {
        const doc = (await (await host.api(`/workflows/${encodeURIComponent(name)}`)).json()) as { inputSchema?: Schema };
        const variables = doc.inputSchema ? fromSchema(doc.inputSchema) : {};
        const answer = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: name, options: { variables } } });
        const body = (await answer.json()) as { data?: { _id: string }; message?: string };
        if (answer.status === 200 && body.data) started.push(body.data._id);
        else refused.push(`${name}: ${answer.status} ${body.message ?? ''}`);
      }
      expect(refused).toEqual([]);

      // Wait (bounded) until every job has ended or waits for an operator.
      const settledOf = (jobs: Summary[]) => jobs.filter((j) => j.status !== 'running' || (j.operatorTasks ?? 0) > 0);
      let jobs: Summary[] = [];
      for (let i = 0; i < 120; i++) {
        jobs = ((await (await host.api('/operations-manager/jobs?limit=500')).json()) as { data: Summary[] }).data.filter((j) => started.includes(j._id));
        if (settledOf(jobs).length === started.length) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const settled = settledOf(jobs);
      const unsettled = jobs.filter((j) => !settled.includes(j));
      console.info(`${source.tag}: ${workflows.length} workflows, ${made.results.length} instances made (${made.results.map((r) => `${r.id}: ${r.methods.length} methods`).join(', ')}), ${jobs.filter((j) => j.status === 'complete').length} complete, ${jobs.filter((j) => j.status === 'error').length} error, ${jobs.filter((j) => j.status === 'running' && j.operatorTasks).length} waiting, unsettled: ${unsettled.map((j) => j.name).join(', ') || 'none'}`);
      for (const job of jobs.filter((j) => j.status === 'error')) console.info(`  ${job.name}: ${jobErrorText(job)}`);
      expect(settled.length / started.length).toBeGreaterThanOrEqual(0.9);
      // An error names the task (or the tasks it stopped at) and its cause.
      for (const job of jobs.filter((j) => j.status === 'error')) expect(jobErrorText(job) ?? '', job.name).toMatch(/task \S+ .*: \S|leads on from \S+ \(/);
      // A job that called a simulated instance says so.
      expect(jobs.some((j) => j.simulated === true)).toBe(true);
    }, 180_000);
  });
}

rehearse(fixtures);
rehearse(corpus);
