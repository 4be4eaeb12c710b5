/**
 * A game server's SDK calls are budgeted (sdk-server.mjs SDK_CALLS: 50 a second, bursts of 200):
 * its supervisor answers them with the host's CPU, outside the session's limits, and before this
 * a game server could make it answer as fast as it could ask (outside check 7, finding 2). Past the
 * budget a call is answered 429 with Retry-After (spec/sdk/) and its connection closed; once even
 * those answers are spent, the socket is closed for the wait the 429s told (connections fail
 * unanswered). The game server's ordinary calls work again once it waited as told. The budget runs
 * on a clock of the test's, so nothing here depends on how fast the machine is.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request } from 'node:http';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { SDK_CALLS, serveSdk } from '../../server/runtime/sdk-server.mjs';
// @ts-expect-error: the sample client is plain JavaScript without types (game servers copy it).
import { connectSdk } from '../../server/sample/sdk-client.mjs';

const sdkSpec = parse(readFileSync(join(import.meta.dirname, '../../generated/sdk/openapi.yaml'), 'utf8'));
const ajv = new Ajv({ strict: false });
ajv.addSchema(sdkSpec, 'sdk');
const errorIsValid = ajv.getSchema('sdk#/components/schemas/SdkError')!;

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

/** An SDK on a socket of its own whose budget runs on `clock.ms`. */
async function sdkOnClock() {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-rate-limit-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const clock = { ms: 0 };
  const socketPath = join(dir, 'sdk.sock');
  const events = { ready: 0, health: 0 };
  const sdk = await serveSdk({
    socketPath,
    bindDir: join(dir, 'bind'),
    allocation: { id: 's1', labels: {}, players: [] },
    onReady: () => events.ready++,
    onHealth: () => events.health++,
    onPlayers() {},
    now: () => clock.ms,
  });
  cleanup.push(() => sdk.close());
  return { socketPath, clock, events };
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: unknown;
}

/** One call on a connection of its own; `closed` when the server closed it unanswered. */
function call(socketPath: string, method: string, path: string): Promise<Answer | 'closed'> {
  return new Promise((resolve) => {
    const req = request({ socketPath, method, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', () => resolve('closed'));
    req.end();
  });
}

describe('the SDK call budget', () => {
  it('answers a flood past it with 429 and Retry-After, then closes its socket for the wait; ordinary calls work after it', async () => {
    const { socketPath, clock, events } = await sdkOnClock();
    // A burst's worth, all served (no time passes on the budget's clock).
    for (let i = 0; i < SDK_CALLS.burst; i++) expect((await call(socketPath, 'POST', '/health')) as Answer).toMatchObject({ status: 204 });
    expect(events.health).toBe(SDK_CALLS.burst);
    // The flood goes on: refused, first with an answer that says how long to wait.
    const flood: (Answer | 'closed')[] = [];
    for (let i = 0; i < 100; i++) flood.push(await call(socketPath, 'POST', '/health'));
    const refused = flood.filter((answer): answer is Answer => answer !== 'closed');
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(errorIsValid(answer.body)).toBe(true);
      expect(answer.body).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    }
    // The 429s are limited too: past them, the socket is closed (connections fail unanswered).
    expect(flood.filter((answer) => answer === 'closed').length).toBeGreaterThan(0);
    expect(events.health).toBe(SDK_CALLS.burst);
    // Waited as told: the game server's ordinary calls work again (the socket is back once that
    // wait is over in real time too).
    clock.ms += Number(refused[0]!.retryAfter) * 1000;
    await vi.waitFor(async () => expect(await call(socketPath, 'POST', '/ready')).toMatchObject({ status: 204 }), { timeout: 10_000, interval: 100 });
    expect(await call(socketPath, 'GET', '/allocation')).toMatchObject({ status: 200, body: { state: 'allocated', session: { id: 's1' } } });
    expect(await call(socketPath, 'PUT', '/player/p1')).toMatchObject({ status: 204 });
    expect(await call(socketPath, 'POST', '/health')).toMatchObject({ status: 204 });
    expect(events).toEqual({ ready: 1, health: SDK_CALLS.burst + 1 });
  });

  it('answers a pipelined flood on one connection once, and closes it', async () => {
    const { socketPath, clock, events } = await sdkOnClock();
    for (let i = 0; i < SDK_CALLS.burst - 1; i++) await call(socketPath, 'POST', '/health');
    const pipelined = 'POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'.repeat(500);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(socketPath, () => socket.write(pipelined));
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    // The budget's last call, then one 429: the other 498 are not answered (nor recorded).
    expect(text.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 204', 'HTTP/1.1 429']);
    expect(text).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(events.health).toBe(SDK_CALLS.burst);
    clock.ms += 1000;
    expect(await call(socketPath, 'POST', '/health')).toMatchObject({ status: 204 });
  });

  it('refills at its rate', async () => {
    const { socketPath, clock } = await sdkOnClock();
    for (let i = 0; i < SDK_CALLS.burst; i++) await call(socketPath, 'POST', '/health');
    expect(await call(socketPath, 'POST', '/health')).toMatchObject({ status: 429 });
    // A tenth of a second: a tenth of the rate's calls.
    clock.ms += 100;
    const answers: (Answer | 'closed')[] = [];
    for (let i = 0; i < SDK_CALLS.perSecond / 10 + 1; i++) answers.push(await call(socketPath, 'POST', '/health'));
    const statuses = answers.map((answer) => (answer === 'closed' ? 'closed' : answer.status));
    expect(statuses.slice(0, -1)).toEqual(Array(SDK_CALLS.perSecond / 10).fill(204));
    expect(statuses.at(-1)).not.toBe(204);
  });

  it('is waited out by the sample client, which calls again after Retry-After', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-rate-limit-client-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const socketPath = join(dir, 'sdk.sock');
    let calls = 0;
    const server = createServer((_req, res) => {
      if (++calls === 1) {
        const text = JSON.stringify({ code: 'TOO_MANY_REQUESTS', message: 'retry after 1 s' });
        res.writeHead(429, { 'content-type': 'application/json', 'content-length': text.length, 'retry-after': '1', connection: 'close' }).end(text);
      } else res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    cleanup.push(() => server.close());
    await connectSdk(socketPath).health();
    expect(calls).toBe(2);
  });
});
