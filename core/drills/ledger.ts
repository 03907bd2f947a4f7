// The ledger of side effects of a drill: an HTTP endpoint on this machine that the drill
// workflow's tasks call (through the http-request adapter), recording each call. A task run twice
// (at-least-once: in flight when its site failed) shows as a (job, task) key called twice.
import http from 'node:http';
import { statusOf } from '../errors';

export interface LedgerCall {
  job: string;
  task: string;
  at: number;
}

export interface Ledger {
  /** Base URL the tasks call, e.g. http://127.0.0.1:PORT/ledger/ */
  url: string;
  calls: LedgerCall[];
  /** Calls of a (job, task) beyond the first. */
  repeated(): number;
  close(): Promise<void>;
}

/**
 * `delayMs`: how long each call takes to answer, as a real side effect (a device's API) would;
 * it keeps tasks in flight long enough for the failure to land mid-load.
 */
export async function startLedger(delayMs = 100, host = '127.0.0.1'): Promise<Ledger> {
  const calls: LedgerCall[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://ledger');
    req.resume();
    if (!url.pathname.startsWith('/ledger/call')) {
      res.writeHead(statusOf('not_found'), { 'content-type': 'application/json' }).end(JSON.stringify({ message: `no ledger route ${url.pathname}` }));
      return;
    }
    calls.push({ job: url.searchParams.get('job') ?? '', task: url.searchParams.get('task') ?? '', at: Date.now() });
    const recorded = calls.length;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ recorded })), delayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`the drill ledger cannot listen on ${host}: ${error.message}`)));
    server.listen(0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/ledger/`,
    calls,
    repeated() {
      const seen = new Map<string, number>();
      for (const call of calls) seen.set(`${call.job}/${call.task}`, (seen.get(`${call.job}/${call.task}`) ?? 0) + 1);
      let extra = 0;
      for (const count of seen.values()) extra += count - 1;
      return extra;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** The drill workflow: `tasks` tasks in a row, each an http-request `post` to the ledger. */
export const DRILL_WORKFLOW = 'DR drill ledger';
/** The drill's own instance of the http-request adapter (the sites' own instances are left alone). */
export const DRILL_ADAPTER = 'dr-drill-ledger';

export function drillWorkflow(tasks = 3) {
  const all: Record<string, unknown> = { workflow_start: { name: 'workflow_start', groups: [] }, workflow_end: { name: 'workflow_end', groups: [] } };
  const transitions: Record<string, Record<string, unknown>> = {};
  let previous = 'workflow_start';
  for (let i = 1; i <= tasks; i++) {
    const id = `d${i}`;
    all[id] = {
      name: 'post',
      summary: `Ledger call ${i}`,
      description: 'Records one side effect in the drill ledger',
      location: 'Adapter',
      app: DRILL_ADAPTER,
      type: 'automatic',
      groups: [],
      variables: { incoming: { url: `$var.job.ledger${i}` }, outgoing: { response: null } },
    };
    transitions[previous] = { [id]: { type: 'standard', state: 'success' } };
    previous = id;
  }
  transitions[previous] = { workflow_end: { type: 'standard', state: 'success' } };
  transitions.workflow_end = {};
  return { name: DRILL_WORKFLOW, type: 'automation', tasks: all, transitions, groups: [] };
}

/** The job variables of one drill job: one ledger URL per task, naming the job and task. */
export function drillJobVariables(ledgerUrl: string, key: string, tasks = 3) {
  const variables: Record<string, string> = { drillKey: key };
  for (let i = 1; i <= tasks; i++) variables[`ledger${i}`] = `${ledgerUrl}call?job=${encodeURIComponent(key)}&task=d${i}`;
  return variables;
}
