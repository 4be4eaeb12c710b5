/**
 * Ports are unique per host address: renaming a node in the fleet file (same host, same range)
 * while a session lives on it keeps that session's ports reserved, and the start says so.
 */
import { describe, expect, it } from 'vitest';
import { useRestartableService } from '../support/process.js';
import { testFleet, writeFleet } from '../support/service.js';
import { hostPort, udpExchange, waitForStatus } from '../support/sessions.js';

describe('a node renamed under a live session', () => {
  const { dataDir, start } = useRestartableService();

  it('keeps the live session’s ports out of new placements', async () => {
    const fleet = testFleet();
    writeFleet(dataDir, fleet);
    const first = await start();
    expect((await first.call('POST', '/session', { body: { id: 'before', location: 'local-a', image: 'echo' } })).status).toBe(201);
    const before = await waitForStatus(first.call, 'before', ['running']);
    await first.kill('SIGTERM');

    const oldId = fleet.locations[0]!.nodes[0]!.id;
    fleet.locations[0]!.nodes[0]!.id = `${oldId}-renamed`;
    writeFleet(dataDir, fleet);
    const second = await start();
    expect(second.output()).toContain(`1 live session(s) on nodes no longer in the fleet file (${oldId} on 127.0.0.1)`);
    expect((await second.call('POST', '/session', { body: { id: 'after', location: 'local-a', image: 'echo' } })).status).toBe(201);
    const after = await waitForStatus(second.call, 'after', ['running']);
    const held = new Set(before.ports.map((p: { host: number }) => p.host));
    expect(after.ports.filter((p: { host: number }) => held.has(p.host))).toEqual([]);
    expect(await udpExchange(before.host, hostPort(before, 'udp'), 'mine?')).toBe('echo before mine?');
    for (const id of ['before', 'after']) expect((await second.call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(second.call, 'before', ['exited']);
    await second.kill('SIGTERM');
  }, 60_000);
});
