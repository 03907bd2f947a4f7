// Every path parameter of the contract is judged by the contract before any handler runs:
// a traversal (`..%2F..%2Foutside`), a NUL, an over-long or a reserved name is answered 400
// naming the parameter, and nothing outside the data directory is read, written or moved.
// The routes come from the contract table, so a new operation is covered as soon as it exists.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { contract, operationNames, type Operation, type OperationName } from '../../core/contract';
import type { Handlers } from '../../core/dispatch/dispatch';
import { buildHttpServer } from '../../core/http/server';
import { startTestHost, type TestHost } from '../support/host';

const CANARY = 'outside-secret-7c1f0b';

/** Values no id or name of the console can take, each with why. */
export const BAD_IDS: { why: string; value: string }[] = [
  { why: 'traversal with slashes', value: '../../outside' },
  { why: 'traversal with backslashes', value: '..\\..\\outside' },
  { why: 'dot-dot alone', value: '..' },
  { why: 'absolute path', value: '/etc/passwd' },
  { why: 'NUL byte', value: 'default\u0000.json' },
  { why: 'over-long', value: 'a'.repeat(300) },
  { why: 'reserved Windows name', value: 'CON' },
  { why: 'reserved Windows name with extension', value: 'nul.txt' },
];

const paramNames = (route: string) => [...route.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
const routesWithParams = operationNames.filter((name) => paramNames(contract[name].path).length > 0);

let host: TestHost;
let root: string;
let server: FastifyInstance;
let url: string;
const called: { name: string; params: unknown }[] = [];

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file);
    out[path.relative(dir, file)] = entry.isFile() ? `${info.mtimeMs}:${await readFile(file, 'utf8')}` : 'dir';
  }
  return out;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'console-traversal-'));
  // `<root>/outside` is where `profiles/../../outside` lands from `<root>/data`.
  await mkdir(path.join(root, 'outside', 'db'), { recursive: true });
  await writeFile(path.join(root, 'outside', 'properties.json'), JSON.stringify({ id: 'outside', mongoProps: { credentials: { passwd: CANARY } } }));
  await writeFile(path.join(root, 'outside', 'db', 'jobs.db'), `{"_id":"x","note":"${CANARY}"}\n`);
  host = await startTestHost({ dataDir: path.join(root, 'data') });
  // The host's own handlers, each call recorded: a refused id must never reach one.
  const handlers = Object.fromEntries(
    Object.entries(host.handlers).map(([name, handler]) => [
      name,
      (input: { params: unknown }, ctx: unknown) => {
        called.push({ name, params: input.params });
        return (handler as (i: unknown, c: unknown) => unknown)(input, ctx);
      },
    ]),
  ) as unknown as Handlers;
  server = await buildHttpServer({ handlers, token: host.token });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await server?.close();
  await host?.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('path parameters', () => {
  it('every route with a parameter declares a params schema that refuses each bad id', () => {
    expect(routesWithParams.length).toBeGreaterThan(10);
    for (const name of routesWithParams) {
      const schema = (contract[name] as Operation).params;
      expect(schema, `${name} declares no params schema`).toBeDefined();
      for (const param of paramNames(contract[name].path)) {
        for (const bad of BAD_IDS) {
          const result = schema!.safeParse({ ...validParams(name), [param]: bad.value });
          expect(result.success, `${name} :${param} accepts ${bad.why}`).toBe(false);
        }
      }
    }
  });

  it('answers every route 400 naming the parameter, reaches no handler, and leaves the outside alone', async () => {
    const before = await snapshot(path.join(root, 'outside'));
    let requests = 0;
    for (const name of routesWithParams) {
      const operation = contract[name];
      for (const param of paramNames(operation.path)) {
        // A bare '..' segment is resolved by the URL itself, before it is sent; the schema test covers it.
        for (const bad of BAD_IDS.filter((b) => b.value !== '..')) {
          const route = operation.path.replace(/:([A-Za-z]+)/g, (_m, p: string) =>
            p === param ? encodeURIComponent(bad.value) : encodeURIComponent(validParams(name)[p]!),
          );
          const response = await fetch(url + route, {
            method: operation.method,
            headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
            body: operation.method === 'GET' ? undefined : JSON.stringify({ id: 'copy', config: {} }),
          });
          requests += 1;
          const text = await response.text();
          const where = `${operation.method} ${route} (${bad.why})`;
          expect(response.status, `${where}: ${text}`).toBe(400);
          const body = JSON.parse(text) as { message: string; issues: { path: string }[] };
          expect(body.issues.map((i) => i.path), where).toContain(`params.${param}`);
          expect(text, where).not.toContain(CANARY);
          expect(text, where).not.toContain(root);
        }
      }
    }
    expect(requests).toBe(routesWithParams.reduce((n, name) => n + paramNames(contract[name].path).length * (BAD_IDS.length - 1), 0));
    expect(called.filter((c) => BAD_IDS.some((b) => JSON.stringify(c.params).includes(JSON.stringify(b.value).slice(1, -1))))).toEqual([]);
    expect(await snapshot(path.join(root, 'outside'))).toEqual(before);
    // Nothing was created beside the data directory either.
    expect((await readdir(root)).sort()).toEqual(['data', 'outside']);
  });

  it('still serves a good id on the same routes', async () => {
    const response = await fetch(`${url}/profiles/default`, { headers: { authorization: `Bearer ${host.token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { profile: { id: string } }).profile.id).toBe('default');
  });
});

/** A value each parameter accepts, so only the parameter under test is bad. */
function validParams(name: OperationName): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of paramNames(contract[name].path)) values[param] = param === 'collectionName' ? 'jobs' : 'default';
  return values;
}
