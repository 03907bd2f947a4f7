// The shipped http-request adapter (allow-listed base URLs) and a profile's own adapters with
// their configuration files, found under `<pathProps.sdk_dir>/adapters`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openAdapters, profileAdaptersDir, type AdapterManager } from '../../core/adapters';
import { FIXTURES, waitFor } from './support';

let server: http.Server;
let base: string;
let dataDir: string;
let sdkDir: string;
let manager: AdapterManager;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/api/devices?site=east') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ devices: ['r1', 'r2'] }));
    } else if (request.url === '/api/echo' && request.method === 'POST') {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => response.end(`got ${text} as ${request.headers['content-type']}`));
    } else if (request.url === '/api/escape') {
      response.statusCode = 302;
      response.setHeader('location', '/private/secrets');
      response.end();
    } else {
      response.statusCode = 500;
      response.end('boom');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  dataDir = await mkdtemp(path.join(os.tmpdir(), 'adapters-data-'));
  sdkDir = path.join(dataDir, 'sdk');
  const adaptersDir = path.join(sdkDir, 'adapters');
  await mkdir(adaptersDir, { recursive: true });
  await cp(path.join(FIXTURES, 'cjs-package'), path.join(adaptersDir, 'cjs'), { recursive: true });
  await writeFile(path.join(adaptersDir, 'cjs.config.json'), JSON.stringify({ punctuation: '!' }));
  await writeFile(path.join(adaptersDir, 'http-request.config.json'), JSON.stringify({ allowedBaseUrls: [`${base}/api`] }));
  const profile = { id: 'p', pathProps: { sdk_dir: sdkDir } };
  expect(profileAdaptersDir(dataDir, profile)).toBe(adaptersDir);
  manager = await openAdapters(dataDir, profile, { healthTimeoutMs: 2000 });
});

afterAll(async () => {
  await manager?.close();
  server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a profile adapters directory', () => {
  it('adds the profile\'s adapters to the shipped ones, configured by <id>.config.json', async () => {
    expect(manager.list()).toEqual(['example', 'http-request', 'cjs']);
    await expect(manager.call('cjs', 'greet', { name: 'Ada' }, { timeoutMs: 10_000 })).resolves.toEqual({ text: 'hello Ada!' });
    const item = await manager.item('cjs');
    expect(item).toMatchObject({ package_id: '@tests/adapter-cjs', version: '2.3.4', source: 'profile', state: 'RUNNING' });
  });

  it('uses the data directory\'s adapters folder when the profile has no sdk_dir', () => {
    expect(profileAdaptersDir('/data', { pathProps: { sdk_dir: '' } })).toBe(path.join('/data', 'adapters'));
    expect(profileAdaptersDir('/data', {})).toBe(path.join('/data', 'adapters'));
  });
});

describe('the http-request adapter', () => {
  it('is ONLINE once a base URL is allowed', async () => {
    const item = await waitFor(async () => {
      const now = await manager.item('http-request');
      return now.connection?.detail !== 'starting' && now;
    }, 'http-request to start');
    expect(item.connection).toEqual({ state: 'ONLINE', detail: '1 allowed base URL' });
  });

  it('GETs and POSTs under an allowed base URL', async () => {
    const got = (await manager.call('http-request', 'get', { url: `${base}/api/devices`, query: { site: 'east' } }, { timeoutMs: 10_000 })) as {
      status: number;
      body: unknown;
    };
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ devices: ['r1', 'r2'] });
    const posted = (await manager.call('http-request', 'post', { url: `${base}/api/echo`, body: { a: 1 } })) as { body: string };
    expect(posted.body).toBe('got {"a":1} as application/json');
  });

  it('refuses URLs outside the allowed bases, redirects included, naming them', async () => {
    await expect(manager.call('http-request', 'get', { url: `${base}/apix` })).rejects.toThrow(
      `adapter "http-request" method "get" failed: refused: ${base}/apix is not under an allowed base URL (allowed: ${base}/api)`,
    );
    await expect(manager.call('http-request', 'get', { url: 'https://elsewhere.example/api/devices' })).rejects.toThrow('refused: https://elsewhere.example/api/devices');
    await expect(manager.call('http-request', 'get', { url: `${base}/api/escape` })).rejects.toThrow(`refused: ${base}/private/secrets`);
  });

  it('makes an error status a task error unless asked not to', async () => {
    await expect(manager.call('http-request', 'get', { url: `${base}/api/broken` })).rejects.toThrow(
      `GET ${base}/api/broken answered 500 Internal Server Error: boom`,
    );
    await expect(manager.call('http-request', 'get', { url: `${base}/api/broken`, allowErrorStatus: true })).resolves.toMatchObject({ status: 500, body: 'boom' });
  });
});
