/**
 * The SDK serializes a session's allocation once per change, not once per call: serialized per
 * call, a session with ~900 KB of labels read at the call budget (50 a second) cost its supervisor
 * 31% of a core (outside check 9, F3). Counted here: the serializations of the allocation's
 * answer (JSON.stringify of `{ state, ... }`) between changes, and every answer still the current one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveSdk, type SdkSession } from '../../server/runtime/sdk-server.mjs';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
  vi.restoreAllMocks();
});

function call(socketPath: string, method: string, path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Counts JSON.stringify calls on an allocation answer (`{ state: ... }`), passing every call through. */
function countAnswerSerializations() {
  const stringify = JSON.stringify;
  const counted = { answers: 0 };
  vi.spyOn(JSON, 'stringify').mockImplementation(function (this: unknown, value: unknown, ...rest: unknown[]) {
    if (typeof value === 'object' && value !== null && 'state' in value) counted.answers++;
    return (stringify as (...args: unknown[]) => string).call(JSON, value, ...rest);
  });
  return counted;
}

async function sdkWith(allocation: SdkSession | null) {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-answer-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const socketPath = join(dir, 'sdk.sock');
  // The budget's clock stands still: 200 calls (its burst) are ample here.
  const sdk = await serveSdk({ socketPath, bindDir: join(dir, 'bind'), allocation, onReady() {}, onHealth() {}, onPlayers() {}, now: () => 0 });
  cleanup.push(() => sdk.close());
  return { sdk, socketPath };
}

describe("the SDK's allocation answer", () => {
  const labels = { mode: 'ranked', notes: 'n'.repeat(1000) };

  it('is serialized once per change, whatever the calls between', async () => {
    const { sdk, socketPath } = await sdkWith({ id: 's1', labels, host: '127.0.0.1', ports: [], players: ['a'] });
    const counted = countAnswerSerializations();
    const read = () => call(socketPath, 'GET', '/allocation');

    for (let i = 0; i < 20; i++) expect((await read()).body).toEqual({ state: 'allocated', session: { id: 's1', labels, host: '127.0.0.1', ports: [], players: ['a'] }, connected: [] });
    expect(counted.answers).toBe(1);

    // A player connecting is a change: the next answer has it, and is serialized once.
    expect((await call(socketPath, 'PUT', '/player/p1')).status).toBe(204);
    for (let i = 0; i < 10; i++) expect((await read()).body.connected).toEqual(['p1']);
    expect(counted.answers).toBe(2);
    // Connecting again changes nothing.
    expect((await call(socketPath, 'PUT', '/player/p1')).status).toBe(204);
    await read();
    expect(counted.answers).toBe(2);

    expect((await call(socketPath, 'DELETE', '/player/p1')).status).toBe(204);
    for (let i = 0; i < 10; i++) expect((await read()).body.connected).toEqual([]);
    expect(counted.answers).toBe(3);

    sdk.setPlayers(['a', 'b']);
    for (let i = 0; i < 10; i++) expect((await read()).body.session.players).toEqual(['a', 'b']);
    expect(counted.answers).toBe(4);
  });

  it('follows allocate(): the warm answer, then the session, each serialized once', async () => {
    const { sdk, socketPath } = await sdkWith(null);
    const counted = countAnswerSerializations();
    for (let i = 0; i < 5; i++) expect((await call(socketPath, 'GET', '/allocation')).body).toEqual({ state: 'warm', connected: [] });
    expect(counted.answers).toBe(1);

    // A long-poll waiting for the session is answered with it (or, arrived after, answered at once).
    const waiting = call(socketPath, 'GET', '/allocation?waitSeconds=30');
    const session = { id: 's2', labels, host: '127.0.0.1', ports: [], players: [] };
    sdk.allocate(session)();
    expect((await waiting).body).toEqual({ state: 'allocated', session, connected: [] });
    for (let i = 0; i < 5; i++) expect((await call(socketPath, 'GET', '/allocation')).body.session).toEqual(session);
    expect(counted.answers).toBe(2);
  });
});
