/**
 * Session ids are unique per account (process runtime): another account's id is neither a 409
 * nor squattable; each account's session has its own game server, directory, players, events,
 * logs and artifacts; both survive a restart of the service.
 */
import { describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { provePerAccountIds, rebind, startTwins, twinAccounts } from '../support/per-account-ids.js';
import { startService, useService } from '../support/service.js';
import { hostPort, runtimeDir, udpExchange, waitForStatus } from '../support/sessions.js';

describe('session ids unique per account, on the process runtime', () => {
  const service = useService();

  it('lets two accounts use one id, each seeing and touching only its own', async () => {
    await provePerAccountIds(service.running, service.contract, { location: 'local-a', image: 'echo' });
  });

  it('gives each its own session directory', async () => {
    const twins = await twinAccounts(service.running, service.contract);
    await startTwins(twins, 'same-dir', { location: 'local-b', image: 'echo' });
    const dirs = await Promise.all(twins.map((twin) => runtimeDir(service.running, 'same-dir', { accountId: twin.accountId })));
    expect(new Set(dirs).size).toBe(2);
    for (const twin of twins) expect((await twin.call('DELETE', '/session/same-dir')).status).toBe(204);
  });
});

describe('session ids unique per account, across a restart of the service', () => {
  it('re-adopts both accounts\' sessions with one id and stops each on its own', async () => {
    const contract = contractFetch();
    const first = await startService();
    const twins = await twinAccounts(first, contract);
    const sessions = await startTwins(twins, 'kept', { location: 'local-a', image: 'echo' });
    await first.close({ keepData: true });

    const second = await startService({ dataDir: first.dataDir });
    try {
      const [a, b] = rebind(twins, second, contract);
      for (const [i, twin] of [a!, b!].entries()) {
        expect((await twin.call('GET', '/session/kept')).json).toMatchObject({ status: 'running', labels: { owner: `twin-${i}` } });
        expect(await udpExchange(sessions[i]!.host, hostPort(sessions[i]!, 'udp'), 'back')).toBe('echo kept back');
      }
      expect((await a!.call('DELETE', '/session/kept')).status).toBe(204);
      await waitForStatus(a!.call, 'kept', ['exited']);
      expect((await b!.call('GET', '/session/kept')).json.status).toBe('running');
      expect(await udpExchange(sessions[1]!.host, hostPort(sessions[1]!, 'udp'), 'alone')).toBe('echo kept alone');
      expect((await b!.call('DELETE', '/session/kept')).status).toBe(204);
      await waitForStatus(b!.call, 'kept', ['exited']);
    } finally {
      await second.close();
    }
    expect(contract.violations).toEqual([]);
  });
});
