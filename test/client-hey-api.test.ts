/**
 * The bundled spec works with a second, independent generator: @hey-api/openapi-ts generates a
 * client from generated/openapi.yaml, the client plus a small lifecycle script compile with tsc,
 * and the script starts, lists and stops a session on the real service.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientProject, compileAndRun, run, typeChecks } from './support/generated-clients.js';
import { startService, type RunningService } from './support/service.js';

const lifecycle = `
import { createClient, createConfig } from './client/index.js';
import { getSession, listSessions, startSession, stopSession } from './sdk.gen.js';
import type { Session, SessionStartRequest as StartRequest, SessionStatus } from './types.gen.js';

const [baseUrl, token] = process.argv.slice(2) as [string, string];
const client = createClient(createConfig({ baseUrl, auth: token }));
const id = 'hey-api-1';
${typeChecks}

async function until(status: SessionStatus): Promise<Session> {
  for (let i = 0; i < 200; i++) {
    const { data, error } = await getSession({ client, path: { id } });
    if (error) throw new Error('getSession: ' + error.code + ' ' + error.identifier);
    if (data?.status === status) return data;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(id + ' never became ' + status);
}

const started = await startSession({ client, body: { id, location: 'local-a', image: 'echo' } });
if (started.error) throw new Error('startSession: ' + started.error.code + ' ' + started.error.identifier);
const running = await until('running');
const listed = await listSessions({ client, query: { status: 'running' } });
if (listed.error) throw new Error('listSessions: ' + listed.error.code);
const stopped = await stopSession({ client, path: { id } });
if (stopped.response.status !== 204) throw new Error('stopSession answered ' + stopped.response.status);
const exited = await until('exited');
console.log(JSON.stringify({
  created: started.response.status,
  running: running.status,
  listed: listed.data?.sessions.map((s) => s.id),
  exited: exited.status,
  endReason: exited.end_reason,
}));
`;

describe('a client from another generator (@hey-api/openapi-ts)', () => {
  let running: RunningService;
  let dir: string;

  beforeAll(async () => {
    running = await startService({ runtime: 'simulated' });
    dir = clientProject('hey-api');
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates a client that compiles and runs a start/list/stop lifecycle', async () => {
    const generated = await run(process.execPath, ['node_modules/@hey-api/openapi-ts/bin/run.js', '-i', resolve('generated/openapi.yaml'), '-o', join(dir, 'client-sdk')]);
    expect(generated.code, generated.output).toBe(0);

    writeFileSync(join(dir, 'client-sdk', 'lifecycle.ts'), lifecycle);
    const { compiled, ran, result } = await compileAndRun(dir, 'client-sdk/lifecycle.ts', [running.url, running.token]);
    expect(compiled.code, compiled.output).toBe(0);
    expect(ran?.code, ran?.output).toBe(0);
    expect(result).toEqual({
      created: 201,
      running: 'running',
      listed: ['hey-api-1'],
      exited: 'exited',
      endReason: 'stopped',
    });
  }, 60_000);
});
