/**
 * A game server that never binds its ports costs its supervisor (ours, outside the session's
 * cgroups) little CPU while its start deadline runs: the readiness poll is fast for a start's first
 * moments and then backs off. Polling every 2 ms for the whole deadline cost ~5-8% of a core per
 * session, so a studio starting many never-binding sessions burnt the host's CPU (outside check 7,
 * finding 2). CPU is counted in the supervisors' ticks (utime + stime), not in wall-clock time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { attackerImage } from '../support/attacker.js';
import { testFleet, useService } from '../support/service.js';
import { runtimeDir, waitForStatus } from '../support/sessions.js';

/** Longer than the test: the session is still starting when its supervisor's CPU is counted. */
const START_SECONDS = 120;
/** How long the supervisors' CPU is counted for, once the fast first polls are over. */
const WINDOW_MS = 10_000;
/**
 * Ticks (1/100 s) the never-binding session's supervisor may spend in WINDOW_MS beyond what a
 * running session's spends (its work directory's checks, the same in both): 1.2% of a core.
 * Polling every 2 ms took 60-80 more on the loaded test VM (25 on a quiet one); backed off, 0-2.
 */
const MAX_EXTRA_TICKS = 12;

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

describe('a game server that never binds its ports', () => {
  const fleet = testFleet((fleet) => {
    fleet.images.push(attackerImage('slow-start', { startSeconds: START_SECONDS }));
  });
  const service = useService({}, { fleet });

  it('costs its supervisor little more CPU than a running one while its start deadline runs', async () => {
    const neverBinds = `never-binds-${process.pid}`;
    const binds = `binds-${process.pid}`;
    const start = async (id: string, env: Record<string, string>) =>
      expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'slow-start', env } })).status).toBe(201);
    await start(neverBinds, { ATTACK: 'idle' });
    await start(binds, {});
    try {
      const stateOf = async (id: string) => JSON.parse(readFileSync(join(await runtimeDir(service.running, id), 'state.json'), 'utf8'));
      await vi.waitFor(async () => expect((await stateOf(neverBinds)).gamePid).toBeGreaterThan(0), { timeout: 15_000, interval: 50 });
      await waitForStatus(service.call, binds, ['running']);
      const supervisors = [(await stateOf(neverBinds)).supervisorPid, (await stateOf(binds)).supervisorPid];
      // Past the fast first polls (a start's first fraction of a second).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const before = supervisors.map(cpuTicks);
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
      const [polling, running] = supervisors.map((pid, i) => cpuTicks(pid) - before[i]!);
      // Still polling: not running, not ended.
      expect((await stateOf(neverBinds)).phase).toBe('starting');
      expect((await service.call('GET', `/session/${neverBinds}`)).json.status).toBe('created');
      expect(polling! - running!, `ticks in ${WINDOW_MS} ms: ${polling} polling, ${running} running`).toBeLessThanOrEqual(MAX_EXTRA_TICKS);
    } finally {
      for (const id of [neverBinds, binds]) expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
      for (const id of [neverBinds, binds]) await waitForStatus(service.call, id, ['exited', 'dead']);
    }
  }, 60_000);
});
