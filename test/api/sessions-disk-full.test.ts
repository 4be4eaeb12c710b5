/**
 * The session directories' disk full (their own file system here, as with PostgreSQL holding the
 * store elsewhere: the service goes on writing): a game server stopped or crashed meanwhile still
 * has its end recorded for what it was, at once. Before, its supervisor could not write the end
 * to state.json: the stop was taken for a lost node past its deadline (dead, node_lost) and the
 * crash was not seen until space came back. Needs root (mount); skipped otherwise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canMount, useServicesOnSmallDisk } from '../support/disk.js';
import { caller } from '../support/http.js';
import { spawnService } from '../support/process.js';
import { TEST_BOOTSTRAP_TOKEN, testFleet, writeFleet } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe.skipIf(!canMount)('the session directories\' disk full', () => {
  const { sessionsDisk, dataDir, contract, processes } = useServicesOnSmallDisk(64, { sessionsMb: 16 });
  const sessionsDir = join(dataDir, 'sessions');

  it('records a stop as stopped and a crash as crashed', async () => {
    writeFleet(dataDir, testFleet());
    const service = await spawnService({ DATA_DIR: dataDir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, LOG_LEVEL: 'warn' });
    processes.push(service);
    const call = caller(service.url, TEST_BOOTSTRAP_TOKEN, contract);
    for (const id of ['stopped-while-full', 'crashed-while-full']) {
      expect((await call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
    }
    for (const id of ['stopped-while-full', 'crashed-while-full']) await waitForStatus(call, id, ['running']);
    // The game server (pasta, sandboxed) of the session that is not stopped: there are two directories, one per session.
    const dirs = readdirSync(sessionsDir).map((name) => join(sessionsDir, name));
    const states = dirs.map((dir) => JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { gamePid: number });

    const freeSpace = sessionsDisk!.fill();
    try {
      expect((await call('DELETE', '/session/stopped-while-full')).status).toBe(204);
      const stopped = await waitForStatus(call, 'stopped-while-full', ['exited', 'dead'], 30_000);
      expect(stopped).toMatchObject({ status: 'exited', end_reason: 'stopped' });
      // The other one's game server is killed (by a signal: a crash).
      const other = states.find((state) => { try { process.kill(state.gamePid, 0); return true; } catch { return false; } });
      process.kill(other!.gamePid, 'SIGKILL');
      expect(await waitForStatus(call, 'crashed-while-full', ['exited', 'dead'], 30_000)).toMatchObject({ status: 'dead', end_reason: 'crashed' });
    } finally {
      freeSpace();
    }
  }, 90_000);
});
