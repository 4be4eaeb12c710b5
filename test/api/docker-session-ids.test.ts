/**
 * Session ids are unique per account on the Docker runtime: two accounts' sessions with one id
 * get their own containers, networks and directories, and both survive a restart of the service.
 * Needs SESSION_HOST_DOCKER_ENGINES (see docker-runtime.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { containersOf, dockerFleet, engines, removeLeftovers, skipReason } from '../support/docker.js';
import { provePerAccountIds, rebind, startTwins, twinAccounts } from '../support/per-account-ids.js';
import { startService, type RunningService } from '../support/service.js';
import { hostPort, runtimeDir, udpExchange, waitForStatus } from '../support/sessions.js';

const where = { location: 'dock', image: 'echo', timeoutMs: 30_000 };

describe.skipIf(engines.length < 2)(`session ids unique per account, on the Docker runtime${engines.length < 2 ? ` (skipped: ${skipReason})` : ''}`, () => {
  const contract = contractFetch();
  let running: RunningService;

  beforeAll(async () => {
    running = await startService({}, { fleet: dockerFleet() });
  });
  afterAll(async () => {
    await running?.close();
    await removeLeftovers('twin-');
    await removeLeftovers('dkept-');
    expect(contract.violations).toEqual([]);
  });

  it('lets two accounts use one id, each seeing and touching only its own', async () => {
    await provePerAccountIds(running, contract, where);
  });

  it('gives each its own container and directory, and re-adopts both after a restart', async () => {
    const twins = await twinAccounts(running, contract);
    const id = `dkept-${Math.random().toString(36).slice(2, 8)}`;
    const sessions = await startTwins(twins, id, where);
    const containers = await Promise.all(twins.map((twin) => containersOf(id, twin.accountId)));
    expect(containers.map((c) => c.length)).toEqual([1, 1]);
    expect(containers[0]![0]!.Id).not.toBe(containers[1]![0]!.Id);
    const dirs = await Promise.all(twins.map((twin) => runtimeDir(running, id, { accountId: twin.accountId, under: 'docker/sessions' })));
    expect(dirs[0]).not.toBe(dirs[1]);

    await running.close({ keepData: true });
    running = await startService({ dataDir: running.dataDir }, { fleet: dockerFleet() });
    const [a, b] = rebind(twins, running, contract);
    for (const [i, twin] of [a!, b!].entries()) {
      expect((await twin.call('GET', `/session/${id}`)).json).toMatchObject({ status: 'running', labels: { owner: `twin-${i}` } });
      expect(await udpExchange(sessions[i]!.host, hostPort(sessions[i]!, 'udp'), 'back')).toBe(`echo ${id} back`);
    }
    expect((await a!.call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(a!.call, id, ['exited'], where.timeoutMs);
    expect((await b!.call('GET', `/session/${id}`)).json.status).toBe('running');
    expect(await udpExchange(sessions[1]!.host, hostPort(sessions[1]!, 'udp'), 'alone')).toBe(`echo ${id} alone`);
    expect((await b!.call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(b!.call, id, ['exited'], where.timeoutMs);
  });
});
