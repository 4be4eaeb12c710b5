/**
 * A session's open files, all its processes together (`sessionOpenFiles`), against the host's file
 * table: `openFiles` (RLIMIT_NOFILE) is per process and `pids` per session, so without the cap one
 * session holds pids x openFiles entries of fs.file-max (262,144 by default; ten sessions filled
 * it and every other tenant's game server got ENFILE: outside check 9, F6). Several processes, each
 * well under its own rlimit, pass the session's cap together: the game server is killed. Fails
 * where the supervisor does not count them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDescriptors } from '../../server/runtime/process/game-tree.mjs';
import { attackerImage } from '../support/attacker.js';
import { eventually } from '../support/eventually.mjs';
import { testFleet, useService } from '../support/service.js';
import { runtimeDir, waitForStatus } from '../support/sessions.js';

/** Each opener holds FILES_EACH, under its own rlimit (openFiles); four of them pass the session's cap. */
const LIMITS = { pids: 48, memoryMb: 256, openFiles: 128, sessionOpenFiles: 200 };
const FILES_EACH = 100;

describe('a session\'s open files, all its processes together', () => {
  let next = 0;
  const newId = () => `fd-${process.pid}-${++next}`;
  const fleet = testFleet((fleet) => {
    fleet.images.push(attackerImage('attacker', LIMITS));
  });
  const service = useService({}, { fleet });
  const output = async (id: string) => (await service.call('GET', `/logs?id=${id}`)).text;

  /** A running session whose OPENERS processes open FILES_EACH files each once told to (the `go` file). */
  const runOpeners = async (openers: number) => {
    const id = newId();
    const env = { ATTACK: 'openfiles', OPENERS: String(openers), FILES_EACH: String(FILES_EACH) };
    expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'attacker', env } })).status).toBe(201);
    await waitForStatus(service.call, id, ['running']);
    const dir = await runtimeDir(service.running, id);
    writeFileSync(join(dir, 'work', 'go'), '');
    return { id, dir };
  };

  /** The session's pids cgroup (its game server's), whose sandboxed processes the supervisor counts. */
  const cgroupOf = (dir: string) => {
    const { gamePid } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    const path = /^\d+:pids:(.*)$/m.exec(readFileSync(`/proc/${gamePid}/cgroup`, 'utf8'))![1];
    return join('/sys/fs/cgroup/pids', path!);
  };

  it('kills the game server once its processes together pass the cap (exit 137, crashed), each under its own rlimit', async () => {
    const { id } = await runOpeners(4);
    const ended = await waitForStatus(service.call, id, ['dead', 'exited'], 20_000);
    expect(ended).toMatchObject({ status: 'dead', end_reason: 'crashed', exit_code: 137 });
    const log = await output(id);
    expect(log).toContain(`the game server's processes passed their limit of ${LIMITS.sessionOpenFiles} open files together (sessionOpenFiles)`);
    // Each opener got all it asked for: no rlimit stopped it, the session's cap did.
    expect(log).not.toMatch(/OPENED (?!100\n)/);
  });

  it('lets a session under the cap run on', async () => {
    const { id, dir } = await runOpeners(1);
    await eventually(() => output(id), { until: (log) => log.includes(`OPENED ${FILES_EACH}\n`), timeoutMs: 15_000, what: 'the opener holding its files' });
    const cgroup = cgroupOf(dir);
    const held = openDescriptors(cgroup, Infinity);
    expect(held).toBeGreaterThan(FILES_EACH);
    expect(held).toBeLessThanOrEqual(LIMITS.sessionOpenFiles);
    // Past the supervisor's slowest check interval (2 s; 250 ms for a count this cheap): still running, its files still held.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await service.call('GET', `/session/${id}`)).json).toMatchObject({ status: 'running' });
    expect(openDescriptors(cgroup, Infinity)).toBeGreaterThan(FILES_EACH);
    expect(await output(id)).not.toContain('sessionOpenFiles');
    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(service.call, id, ['exited', 'dead']);
  });
});
