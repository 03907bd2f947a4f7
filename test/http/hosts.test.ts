// Only the names the console is reached by are served (DNS rebinding), and the token is not
// printed where it would end up in a log file.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

function get(url: string, hostHeader: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { host: hostHeader, authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('Host header', () => {
  let host: TestHost;
  let port: string;
  beforeAll(async () => {
    host = await startTestHost();
    port = new URL(host.url).port;
  });
  afterAll(() => host?.dispose());

  it('serves 127.0.0.1, localhost and [::1] on the console port', async () => {
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await get(`${host.url}/health/status`, name, host.token)).status, name).toBe(200);
    }
  });

  it('answers any other Host 421 with a JSON body naming the address to use', async () => {
    for (const name of ['evil.example', `evil.example:${port}`, '127.0.0.1', `127.0.0.1:${Number(port) + 1}`, `localhost.evil.example:${port}`]) {
      const answer = await get(`${host.url}/health/status`, name, host.token);
      expect(answer.status, name).toBe(421);
      const body = JSON.parse(answer.body);
      expect(body).toMatchObject({ statusCode: 421, error: 'Misdirected Request' });
      expect(body.message).toContain(`http://127.0.0.1:${port}`);
    }
    // The UI too, not only the API.
    expect((await get(`${host.url}/`, 'evil.example', host.token)).status).toBe(421);
  });
});

describe('the token printed by serve', () => {
  const run = async (args: string[]) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-token-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dataDir, '--port', '0', ...args], {
      env: { ...process.env, CONSOLE_TOKEN: 'printed-token-check-123' },
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes('Data directory:')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
    // Gone before its data directory is removed (a running console still writes there).
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    return output;
  };

  it('is not printed when stdout is not a terminal, and says where to find it', async () => {
    const output = await run([]);
    expect(output).not.toContain('printed-token-check-123');
    expect(output).toMatch(/Open http:\/\/127\.0\.0\.1:\d+\/ with the token of .*console-token/);
  }, 90_000);

  it('is printed when asked with --print-token', async () => {
    expect(await run(['--print-token'])).toMatch(/Open http:\/\/127\.0\.0\.1:\d+\/#token=printed-token-check-123/);
  }, 90_000);

  it('is never printed with --no-print-token', async () => {
    expect(await run(['--print-token', '--no-print-token'])).not.toContain('printed-token-check-123');
  }, 90_000);
});
