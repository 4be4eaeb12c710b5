/**
 * What placement counts as taken on a node's host: the live sessions' ports, the warm servers'
 * and those the runtime sees held by other processes, joined without copying any of them.
 */
import { describe, expect, it } from 'vitest';
import type { NodeConfig } from '../../server/config/fleet-types.js';
import { NodeUsage } from '../../server/domain/node-usage.js';
import { place } from '../../server/domain/placement.js';

const node: NodeConfig = { id: 'n1', host: '127.0.0.1', ports: { from: 100, to: 109 }, capacity: 10, locked: false };

function usage(ports: { sessions: number[]; warm?: number[]; held?: number[] }) {
  return new NodeUsage(
    { liveSessionsOn: async () => ports.sessions.length, portsInUse: async () => new Set(ports.sessions) },
    ports.warm ? { countOn: async () => ports.warm!.length, portsInUse: async () => new Set(ports.warm) } : undefined,
    { heldPorts: ports.held ? () => new Set(ports.held) : undefined },
  );
}

const placedPorts = async (ports: Parameters<typeof usage>[0]) => {
  const { slots, ports: used } = await usage(ports).of([node]);
  const placement = place([node], slots, used, 3);
  return placement.ok ? placement.ports : placement;
};

describe('node usage', () => {
  it('counts the sessions\', the warm servers\' and the runtime\'s held ports as taken', async () => {
    expect(await placedPorts({ sessions: [100] })).toEqual([101, 102, 103]);
    expect(await placedPorts({ sessions: [100], warm: [101] })).toEqual([102, 103, 104]);
    expect(await placedPorts({ sessions: [100], held: [102] })).toEqual([101, 103, 104]);
    expect(await placedPorts({ sessions: [100], warm: [101, 103], held: [102, 105] })).toEqual([104, 106, 107]);
  });

  it('counts warm servers as taken slots', async () => {
    const { slots } = await usage({ sessions: [100, 101], warm: [102] }).of([node]);
    expect(slots('n1')).toBe(3);
  });
});
