/**
 * A game server's output is read at its image's rate (`outputMbPerSecond`, bursts of 8 seconds'
 * worth): a flood past it blocks the game server in write(2) instead of costing its supervisor
 * (outside the session's cgroups) CPU and the data disk bandwidth. Fails where the supervisor reads
 * whatever comes.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { attackerImage } from '../support/attacker.js';
import { testFleet, useService } from '../support/service.js';
import { runtimeDir, waitForStatus } from '../support/sessions.js';

const RATE_BYTES = 64 * 1024;
const BURST_BYTES = RATE_BYTES * 8;
/** Node reads a pipe 64 KiB at a time: the last chunk may overdraw the bucket by that much, on either side of a window. */
const SLACK_BYTES = 4 * 64 * 1024;

describe('a game server flooding its output', () => {
  const fleet = testFleet((fleet) => {
    fleet.images.push(attackerImage('flood', { outputMb: 16, outputMbPerSecond: RATE_BYTES / 1024 / 1024 }));
  });
  const service = useService({}, { fleet });

  it('is read no faster than its image\'s rate once its burst is spent', async () => {
    const id = `flood-${process.pid}`;
    expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'flood', env: { ATTACK: 'yes' } } })).status).toBe(201);
    const dir = await runtimeDir(service.running, id);
    await vi.waitFor(() => expect(statSync(join(dir, 'output.log')).size).toBeGreaterThanOrEqual(BURST_BYTES), { timeout: 15_000, interval: 50 });
    // What its supervisor wrote (output.log rotates; nothing else is written meanwhile).
    const { supervisorPid } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    const written = () => Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${supervisorPid}/io`, 'utf8'))![1]);
    const [before, from] = [written(), performance.now()];
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const [after, seconds] = [written(), (performance.now() - from) / 1000];
    expect(after - before).toBeLessThanOrEqual(RATE_BYTES * seconds + SLACK_BYTES);
    // Still read (blocked, not dropped).
    expect(after - before).toBeGreaterThan(0);
    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(service.call, id, ['exited', 'dead']);
  });
});
