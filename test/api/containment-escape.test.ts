/**
 * A game server that leaves the process group its sandbox started it in (setsid: its own session)
 * is still reached by every kill and stop of its supervisor, which go by what it cannot leave (its
 * cgroup and pid namespace). Each case fails where the supervisor signals by process group.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackerImage } from '../support/attacker.js';
import { testFleet, useService } from '../support/service.js';
import { runtimeDir, waitForStatus } from '../support/sessions.js';

const LIMITS = { pids: 48, memoryMb: 128, workDirMb: 8 };

describe('a game server in a session of its own (setsid)', () => {
  let next = 0;
  const newId = () => `esc-${process.pid}-${++next}`;
  const fleet = testFleet((fleet) => {
    const unhealthy = attackerImage('attacker-sdk', LIMITS);
    Object.assign(unhealthy.tags.latest, { readiness: 'sdk', healthSeconds: 1 });
    fleet.images.push(attackerImage('attacker', LIMITS), unhealthy);
  });
  const service = useService({}, { fleet });

  const start = async (image: string, env: Record<string, string>) => {
    const id = newId();
    const started = await service.call('POST', '/session', { body: { id, location: 'local-a', image, env: { SETSID: '1', ...env } } });
    expect(started.status).toBe(201);
    return id;
  };
  const output = async (id: string) => (await service.call('GET', `/logs?id=${id}`)).text;

  it('is killed past its work directory\'s limit (exit 137), before it writes on', async () => {
    // 32 times the limit, then an echo server: it would run on with all of it written.
    const id = await start('attacker', { ATTACK: 'fill', FILL_MB: String(LIMITS.workDirMb * 32) });
    const ended = await waitForStatus(service.call, id, ['dead', 'exited', 'running'], 30_000);
    expect(ended).toMatchObject({ status: 'dead', exit_code: 137 });
    const log = await output(id);
    expect(log).toContain('the work directory passed its limit');
    expect(log).not.toContain('FILLED');
  });

  it('is killed when it stops pinging its health', async () => {
    const id = await start('attacker-sdk', { ECHO_SDK: 'no-health' });
    await waitForStatus(service.call, id, ['running']);
    const ended = await waitForStatus(service.call, id, ['exited', 'dead'], 20_000);
    expect(ended).toMatchObject({ status: 'dead', end_reason: 'crashed', exit_code: 137 });
    expect(await output(id)).toContain('no health ping for 1 s');
  });

  it('gets the stop\'s SIGTERM, and ends as it chooses within the grace period', async () => {
    const id = await start('attacker', {});
    await waitForStatus(service.call, id, ['running']);
    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    const ended = await waitForStatus(service.call, id, ['exited', 'dead']);
    expect(ended).toMatchObject({ status: 'exited', exit_code: 0 });
    // The echo server writes its summary on SIGTERM.
    expect(existsSync(join(await runtimeDir(service.running, id), 'work', 'summary.json'))).toBe(true);
  });
});
