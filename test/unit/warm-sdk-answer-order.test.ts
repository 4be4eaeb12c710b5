/**
 * A warm game server's handoff answers the service before it wakes the game server
 * (server/runtime/sdk-server.mjs and warm-handoff.mjs, real unix sockets): once allocated,
 * the SDK answers every call with the session, but a long-poll already waiting for it is answered
 * only by the function allocate() returns, which the handoff calls after its `ok` is written. On a
 * busy core the woken game server would otherwise run before the `ok`, and the start's `201` would
 * wait for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WarmAllocation } from '../../server/domain/ports/runtime.js';
import { handOver, serveHandoff } from '../../server/runtime/process/warm-handoff.mjs';
import { serveSdk } from '../../server/runtime/sdk-server.mjs';
import { sdkCall } from '../support/sdk.js';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

function directory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'warm-sdk-order-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const session = { id: 's1', labels: { map: 'dust' } as Record<string, string>, players: [] as string[] };
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

async function warmSdk() {
  const socketPath = join(directory(), 'sdk.sock');
  const sdk = await serveSdk({ socketPath, bindDir: `${socketPath}.bind`, allocation: null, onReady() {}, onHealth() {}, onPlayers() {} });
  cleanup.push(() => sdk.close());
  return { sdk, socketPath };
}

describe("a warm game server's allocation", () => {
  it('is answered at once to a new call, and to a waiting long-poll only when the returned function runs', async () => {
    const { sdk, socketPath } = await warmSdk();
    const polling = sdkCall(socketPath, 'GET', '/allocation?waitSeconds=60');
    expect(await settled(polling)).toBe(false);
    const answerWaiting = sdk.allocate(session);
    expect(await sdkCall(socketPath, 'GET', '/allocation?waitSeconds=0')).toMatchObject({ status: 200, body: { state: 'allocated', session } });
    expect(await settled(polling)).toBe(false);
    answerWaiting();
    expect(await polling).toMatchObject({ status: 200, body: { state: 'allocated', session } });
  });

  it("wakes the waiting long-poll from the handoff, after the handoff's ok is written", async () => {
    const { sdk, socketPath } = await warmSdk();
    const polling = sdkCall(socketPath, 'GET', '/allocation?waitSeconds=60');
    expect(await settled(polling)).toBe(false);
    const handoffPath = join(directory(), 'handoff.sock');
    const order: string[] = [];
    const served = await serveHandoff({
      socketPath: handoffPath,
      onAllocation: ({ id, labels, players }: WarmAllocation) => {
        order.push('allocated');
        const answerWaiting = sdk.allocate({ id, labels, players });
        return () => {
          order.push('after the answer');
          answerWaiting();
        };
      },
    });
    cleanup.push(() => served.close());
    await handOver(handoffPath, { ...session, restart: false });
    expect(await polling).toMatchObject({ status: 200, body: { state: 'allocated', session } });
    expect(order).toEqual(['allocated', 'after the answer']);
  });
});
