/**
 * The game-server SDK (spec/sdk/) on the process runtime, sandboxed: the echo server reads its
 * allocation, says ready and reports players through its own socket; readiness `sdk` waits for
 * that `ready`; a health deadline kills a game server that stops pinging; and no game server
 * reaches another session's socket.
 */
import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { sdkCall } from '../support/sdk.js';
import { testFleet, useService } from '../support/service.js';
import { hostPort, runtimeDir, tcpExchange, waitForStatus } from '../support/sessions.js';

const sdkSpec = parse(readFileSync(join(import.meta.dirname, '../../generated/sdk/openapi.yaml'), 'utf8'));
const ajv = new Ajv({ strict: false });
ajv.addSchema(sdkSpec, 'sdk');
const allocationIsValid = ajv.getSchema('sdk#/components/schemas/Allocation')!;
const errorIsValid = ajv.getSchema('sdk#/components/schemas/SdkError')!;

/** Bytes written as they are over a session's socket; resolves with what came back. */
function rawSdkRequest(socketPath: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => socket.end(bytes));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** One call on a connection of its own: its status, or `closed` when the SDK closed it unanswered. */
function statusOf(socketPath: string, method: string, path: string): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const socket = connect(socketPath, () => socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]) || 'closed'));
    socket.on('error', () => {});
  });
}

/** The start deadline of a game server that binds its ports and never says ready. */
const SILENT_START_SECONDS = 15;
/** How long a test waits for a sandboxed start (several seconds at load 20 on 2 cores). */
const START_WAIT_MS = 45_000;

describe('the game-server SDK', { timeout: 90_000 }, () => {
  let next = 0;
  const newId = () => `sdk-${process.pid}-${++next}`;
  const fleet = testFleet((fleet) => {
    const echo = fleet.images.find((image) => image.name === 'echo')!;
    const sdkImage = (name: string, tag: object, limits: object = {}) => ({
      ...structuredClone(echo),
      name,
      limits,
      tags: { latest: { ...structuredClone(echo.tags[echo.defaultTag]!), ...tag } },
      defaultTag: 'latest',
    });
    fleet.images.push(
      // The product's start deadline (60 s): a busy machine's sandboxed start took more than 2 s.
      sdkImage('echo-sdk', { readiness: 'sdk' }),
      // One that never says ready meets its own deadline, long enough for it to bind its ports first on a busy machine.
      sdkImage('echo-sdk-silent', { readiness: 'sdk' }, { startSeconds: SILENT_START_SECONDS }),
      sdkImage('echo-health', { readiness: 'sdk', healthSeconds: 1 }),
      sdkImage('attacker', { command: ['/bin/sh', './test/support/attacker.sh', process.execPath, './server/sample/echo-server.mjs'] }),
    );
  });
  const service = useService({}, { fleet });
  const sessionDir = (id: string) => runtimeDir(service.running, id);
  const socketOf = async (id: string) => join(await sessionDir(id), 'sdk', 'sdk.sock');
  const output = async (id: string) => (await service.call('GET', `/logs?id=${id}`)).text;
  /** Once the game server has logged `text` (its allocation: just after it says ready, which may be what made it running). */
  const logged = (id: string, text: string) => vi.waitFor(async () => expect(await output(id)).toContain(text), { timeout: 30_000, interval: 100 });
  const start = async (image: string, env: Record<string, string> = {}, labels: Record<string, string> = {}) => {
    const id = newId();
    const started = await service.call('POST', '/session', { body: { id, location: 'local-a', image, env, labels } });
    expect(started.status).toBe(201);
    return id;
  };

  it('tells the game server its allocation; with readiness "sdk" it is running once it says ready', async () => {
    const id = await start('echo-sdk', {}, { mode: 'ranked' });
    const running = await waitForStatus(service.call, id, ['running'], START_WAIT_MS);
    await logged(id, `allocated to session ${id} (labels {"mode":"ranked"})`);
    const allocation = await sdkCall(await socketOf(id), 'GET', '/allocation');
    expect(allocation.status).toBe(200);
    expect(allocationIsValid(allocation.body)).toBe(true);
    expect(allocation.body).toMatchObject({
      state: 'allocated',
      session: { id, labels: { mode: 'ranked' }, host: running.host, ports: running.ports.map(({ name, type, host }: { name: string; type: string; host: number }) => ({ name, type, host })) },
    });
    // The socket is the session uid's alone.
    const state = JSON.parse(readFileSync(join(await sessionDir(id), 'state.json'), 'utf8'));
    const socket = statSync(await socketOf(id));
    expect([socket.uid, socket.mode & 0o777]).toEqual([state.uid, 0o600]);
  });

  it('keeps a game server that binds its ports but never says ready from counting as running', async () => {
    const id = await start('echo-sdk-silent', { ECHO_SDK: 'off' });
    // Its ports bound (it logs that once they are), it still starts; at its deadline its start fails.
    await logged(id, `echo server for session ${id} on udp`);
    expect((await service.call('GET', `/session/${id}`)).json.status).not.toBe('running');
    const ended = await waitForStatus(service.call, id, ['dead', 'exited'], (SILENT_START_SECONDS + 30) * 1000);
    expect(ended.end_reason).toBe('start_failed');
  });

  it('records players the game server reports connected and disconnected', async () => {
    const id = await start('echo-sdk');
    const running = await waitForStatus(service.call, id, ['running'], START_WAIT_MS);
    const tcp = hostPort(running, 'tcp');
    expect(await tcpExchange(running.host, tcp, 'connect p1')).toBe(`echo ${id} connect p1`);
    expect(await tcpExchange(running.host, tcp, 'connect p2')).toBe(`echo ${id} connect p2`);
    expect(await tcpExchange(running.host, tcp, 'disconnect p1')).toBe(`echo ${id} disconnect p1`);
    const allocation = await sdkCall(await socketOf(id), 'GET', '/allocation');
    expect(allocation.body).toMatchObject({ connected: ['p2'] });
    // Recorded beside state.json, which the service reads on every change: a game server
    // flipping players as fast as it can must not make the service re-read a growing file.
    await vi.waitFor(async () => expect(JSON.parse(readFileSync(join(await sessionDir(id), 'connected.json'), 'utf8'))).toEqual(['p2']), {
      timeout: 15_000,
      interval: 100,
    });
    expect(JSON.parse(readFileSync(join(await sessionDir(id), 'state.json'), 'utf8'))).not.toHaveProperty('connected');
    const bad = await sdkCall(await socketOf(id), 'PUT', '/player/no%20spaces');
    expect(bad.status).toBe(400);
    expect(errorIsValid(bad.body)).toBe(true);
    const wait = await sdkCall(await socketOf(id), 'GET', '/allocation?waitSeconds=61');
    expect([wait.status, errorIsValid(wait.body)]).toEqual([400, true]);
    expect((await sdkCall(await socketOf(id), 'GET', '/session')).status).toBe(404);
    // A request target that is no URL is the game server's error, answered, not its supervisor's end.
    expect(await rawSdkRequest(await socketOf(id), 'GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect((await sdkCall(await socketOf(id), 'GET', '/allocation')).status).toBe(200);
    expect((await service.call('GET', `/session/${id}`)).json).toMatchObject({ status: 'running' });
  });

  it('keeps the allocation\'s players as the control API joins and removes them', async () => {
    const id = await start('echo-sdk');
    await waitForStatus(service.call, id, ['running'], START_WAIT_MS);
    const playersInSdk = async () => ((await sdkCall(await socketOf(id), 'GET', '/allocation')).body as { session: { players: string[] } }).session.players;
    expect(await playersInSdk()).toEqual([]);
    expect((await service.call('PUT', '/session/player/join', { body: { session: id, players: ['p1', 'p2'] } })).status).toBe(200);
    await vi.waitFor(async () => expect(await playersInSdk()).toEqual(['p1', 'p2']), { timeout: 15_000, interval: 20 });
    expect((await service.call('DELETE', '/session/player/leave', { body: { players: ['p1'] } })).status).toBe(200);
    await vi.waitFor(async () => expect(await playersInSdk()).toEqual(['p2']), { timeout: 15_000, interval: 20 });
    // The control API takes any characters in a player id, the SDK's own /player/{player} fewer:
    // the allocation carries the joined ones as they are, and its schema says so.
    expect((await service.call('PUT', '/session/player/join', { body: { session: id, players: ['Ünï name/1'] } })).status).toBe(200);
    await vi.waitFor(async () => expect(await playersInSdk()).toEqual(['p2', 'Ünï name/1']), { timeout: 15_000, interval: 20 });
    const allocation = (await sdkCall(await socketOf(id), 'GET', '/allocation')).body;
    expect(allocationIsValid(allocation), JSON.stringify(allocationIsValid.errors)).toBe(true);
    // The owner-only umask the socket is made with never reaches the game server (it starts meanwhile).
    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(service.call, id, ['exited'], 30_000);
    const umask = process.umask();
    expect(statSync(join(await sessionDir(id), 'work', 'summary.json')).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('kills a game server that said ready and then stops pinging its health', async () => {
    const id = await start('echo-health', { ECHO_SDK: 'no-health' });
    // Running for about a second only (a busy machine's poll may miss it): the supervisor's line says it was ready.
    const ended = await waitForStatus(service.call, id, ['exited', 'dead'], 30_000);
    expect(ended).toMatchObject({ status: 'dead', end_reason: 'crashed', exit_code: 137 });
    expect(await output(id)).toContain('no health ping for 1 s');
  });

  it('keeps one game server from reaching another session\'s socket', async () => {
    const victim = await start('echo-sdk');
    await waitForStatus(service.call, victim, ['running'], START_WAIT_MS);
    const attacker = await start('echo-sdk');
    await waitForStatus(service.call, attacker, ['running'], START_WAIT_MS);
    // The attacker's own SDK answers with its own session only.
    await logged(attacker, `allocated to session ${attacker} `);
    // From inside its sandbox, the victim's socket path is hidden (the data directory is empty there).
    const probe = await start('attacker', { ATTACK: 'socket', SOCKET: await socketOf(victim) });
    await waitForStatus(service.call, probe, ['running'], START_WAIT_MS);
    expect(await output(probe)).toContain(`REFUSED ${await socketOf(victim)}`);
  });

  it('answers a flood of calls past its budget with 429s, then closes its socket a while; the game server\'s own calls get through after', async () => {
    const id = await start('echo-sdk');
    const running = await waitForStatus(service.call, id, ['running']);
    const socketPath = await socketOf(id);
    const count = (status: number | 'closed') => statuses.filter((seen) => seen === status).length;
    // 16 callers at once (the way a game server hammering it would), until 429s came back and
    // then the socket was gone (its 429s spent too); bounded: the budget is 50 a second, bursts
    // of 200, and 20 429s a second, so both come well before the cap.
    const statuses: (number | 'closed')[] = [];
    let flooding = true;
    const caller = async () => {
      while (flooding && statuses.length < 20_000) {
        statuses.push(await statusOf(socketPath, 'POST', '/health'));
        if (count(429) > 0 && count('closed') > 0) flooding = false;
      }
    };
    const flood = Promise.all(Array.from({ length: 16 }, caller));
    try {
      await vi.waitFor(() => expect([count(429) > 0, count('closed') > 0]).toEqual([true, true]), { timeout: 15_000, interval: 20 });
    } finally {
      flooding = false;
      await flood;
    }
    expect(statuses.filter((status) => status !== 204 && status !== 429 && status !== 'closed')).toEqual([]);
    // The game server reports a player now, from its sandbox: its client waits until the socket
    // is back (made anew, still the session uid's alone) and gets through.
    expect(await tcpExchange(running.host, hostPort(running, 'tcp'), 'connect p9', 15_000)).toBe(`echo ${id} connect p9`);
    await vi.waitFor(async () => expect((await sdkCall(socketPath, 'GET', '/allocation')).body).toMatchObject({ connected: ['p9'] }), { timeout: 10_000, interval: 200 });
    const state = JSON.parse(readFileSync(join(await sessionDir(id), 'state.json'), 'utf8'));
    const socket = statSync(socketPath);
    expect([socket.uid, socket.mode & 0o777]).toEqual([state.uid, 0o600]);
    expect((await service.call('GET', `/session/${id}`)).json).toMatchObject({ status: 'running' });
  });
});
