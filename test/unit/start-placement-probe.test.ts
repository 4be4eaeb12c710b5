/**
 * A start's placement asks the runtime about the few ports it picked (`heldAmong`) instead of
 * reading every port anyone holds: held ones are skipped, and a host full of other listeners
 * is read whole after a few probes. The real probe binds the ports (server/runtime/port-probe.ts).
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeConfig } from '../../server/config/fleet-types.js';
import { NodeUsage } from '../../server/domain/node-usage.js';
import { heldAmong } from '../../server/runtime/port-probe.js';
import { freePort } from '../support/free-port.js';

const node: NodeConfig = { id: 'n1', host: '127.0.0.1', ports: { from: 41_000, to: 41_099 }, capacity: 10, locked: false };
/** A probe budget no loaded machine passes, where the deadline is not what a test looks at (the default is 50 ms). */
const NO_DEADLINE = 60_000;
const sessions = { liveSessionsOn: async () => 0, portsInUse: async () => new Set([41_000]) };

/** A runtime whose host has `held` taken by other processes; it counts whole reads. */
function runtimeHolding(held: Set<number>, probes = true) {
  const calls = { probes: 0, reads: 0 };
  return {
    calls,
    heldPorts: () => {
      calls.reads++;
      return held;
    },
    ...(probes
      ? {
          heldAmong: async (_host: string, ports: readonly number[]) => {
            calls.probes++;
            return new Set(ports.filter((port) => held.has(port)));
          },
        }
      : {}),
  };
}

describe('a start\'s placement', () => {
  it('skips picked ports another process holds, without reading them all', async () => {
    const runtime = runtimeHolding(new Set([41_001, 41_003]));
    const placement = await new NodeUsage(sessions, undefined, runtime, NO_DEADLINE).placeStart([node], 2);
    expect(placement).toMatchObject({ ok: true, ports: [41_002, 41_004] });
    expect(runtime.calls).toEqual({ probes: 3, reads: 0 });
  });

  it('reads the whole list once probing keeps finding held ports', async () => {
    const runtime = runtimeHolding(new Set(Array.from({ length: 40 }, (_, i) => 41_001 + i)));
    const placement = await new NodeUsage(sessions, undefined, runtime, NO_DEADLINE).placeStart([node], 2);
    expect(placement).toMatchObject({ ok: true, ports: [41_041, 41_042] });
    expect(runtime.calls).toEqual({ probes: 4, reads: 1 });
  });

  it('gives up a probe that does not answer in time (it holds the placing transaction) and reads the whole list instead', async () => {
    const runtime = { ...runtimeHolding(new Set([41_001])), heldAmong: () => new Promise<ReadonlySet<number>>(() => {}) };
    expect(await new NodeUsage(sessions, undefined, runtime).placeStart([node], 1)).toMatchObject({ ok: true, ports: [41_002] });
    expect(runtime.calls.reads).toBe(1);
  });

  it('reads the whole list when the runtime cannot probe', async () => {
    const runtime = runtimeHolding(new Set([41_001]), false);
    expect(await new NodeUsage(sessions, undefined, runtime).placeStart([node], 1)).toMatchObject({ ok: true, ports: [41_002] });
    expect(runtime.calls.reads).toBe(1);
  });
});

describe('the port probe', () => {
  let tcp: Server;
  let udp: Socket;
  const ports = { tcp: 0, udp: 0, free: 0 };
  beforeAll(async () => {
    [ports.tcp, ports.udp, ports.free] = [await freePort(), await freePort(), await freePort()];
    tcp = createServer();
    await new Promise<void>((resolve) => tcp.listen(ports.tcp, '0.0.0.0', resolve));
    udp = createSocket('udp4');
    await new Promise<void>((resolve) => udp.bind(ports.udp, '127.0.0.1', resolve));
  });
  afterAll(() => {
    tcp.close();
    udp.close();
  });

  it('finds TCP listeners (on any address) and bound UDP sockets, and nothing on a free port', async () => {
    expect([...(await heldAmong('127.0.0.1', [ports.tcp, ports.udp, ports.free]))].sort()).toEqual([ports.tcp, ports.udp].sort());
  });
});
