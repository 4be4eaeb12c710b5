/**
 * A game server that keeps printing while the data disk is full: its supervisor cannot append to
 * output.log (ENOSPC). That output is lost (the log says how much once it takes writes again), but
 * the game server is not: before, the failed write ended the supervisor, which killed the game
 * server on its way out, and the session ended `dead`/`node_lost`. Needs root (mount); skipped otherwise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canMount, useServicesOnSmallDisk } from '../support/disk.js';
import { eventually } from '../support/eventually.mjs';
import { caller } from '../support/http.js';
import { spawnService } from '../support/process.js';
import { TEST_BOOTSTRAP_TOKEN, testFleet, writeFleet } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

/** write(2) calls the process made, failed ones included (/proc/<pid>/io syscw); undefined once it is gone. */
function writeCalls(pid: number): number | undefined {
  try {
    return Number(/^syscw: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
  } catch {
    return undefined;
  }
}

describe.skipIf(!canMount)('a game server printing while the disk is full', () => {
  const { disk, dataDir, contract, processes } = useServicesOnSmallDisk(24);

  it('keeps running, its log says what was lost, and its stop once space is back ends it as usual', async () => {
    writeFleet(dataDir, testFleet((fleet) => {
      fleet.images.push({
        name: 'chatty',
        defaultTag: 'latest',
        public: true,
        limits: {},
        tags: {
          latest: {
            // A 1 kB line every 20 ms (a page of the disk's every few lines) besides the echo server.
            command: ['/bin/sh', '-c', `while :; do head -c 1000 /dev/zero | tr '\\0' x; echo; sleep 0.02; done & exec "${process.execPath}" "${process.cwd()}/server/sample/echo-server.mjs"`],
            ports: [
              { name: 'game', type: 'udp', container: 7777 },
              { name: 'query', type: 'tcp', container: 7778 },
            ],
          },
        },
      } as never);
    }));
    const service = await spawnService({ DATA_DIR: dataDir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, LOG_LEVEL: 'warn' });
    processes.push(service);
    const call = caller(service.url, TEST_BOOTSTRAP_TOKEN, contract);
    const id = 'chatty-while-full';
    expect((await call('POST', '/session', { body: { id, location: 'local-a', image: 'chatty' } })).status).toBe(201);
    await waitForStatus(call, id, ['running']);
    // Its session directory: the only one (spares wait elsewhere).
    const [key, ...others] = readdirSync(join(dataDir, 'sessions'));
    expect(others).toEqual([]);
    const dir = join(dataDir, 'sessions', key!);
    const { supervisorPid, gamePid } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));

    const freeSpace = disk!.fill();
    // Its supervisor tries to write (and fails) many times over: dozens of lines, each past what the
    // last page had left. Without the fix it is gone at the first.
    const before = writeCalls(supervisorPid)!;
    const after = await eventually(async () => writeCalls(supervisorPid), {
      until: (calls) => calls === undefined || calls >= before + 50,
      timeoutMs: 30_000,
      what: 'the supervisor writing output while the disk is full',
    });
    freeSpace();
    expect(after, 'the supervisor ended on a full disk').toBeDefined();
    expect(writeCalls(gamePid), 'the game server was killed').toBeDefined();
    await eventually(() => readFileSync(join(dir, 'output.log'), 'utf8'), {
      until: (log) => /supervisor: \d+ bytes of output were lost \(ENOSPC\)/.test(log),
      what: 'the log telling the output lost',
    });

    expect((await call('DELETE', `/session/${id}`)).status).toBe(204);
    expect(await waitForStatus(call, id, ['exited', 'dead'])).toMatchObject({ status: 'exited', end_reason: 'stopped' });
  }, 60_000);
});
