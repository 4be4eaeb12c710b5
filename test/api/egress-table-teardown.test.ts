/**
 * A sandboxed instance's egress firewall table (server/runtime/process/egress-firewall.ts) lives
 * as long as its game servers: a clean stop with a game server still running keeps it (game
 * servers outlive the service, and must not be let out when it stops); a clean stop with none
 * left removes it, so stopped instances leave no tables behind.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { egressTable } from '../../server/runtime/process/egress-firewall.js';
import { removeTree } from '../../server/runtime/process/retention.js';
import { instanceCgroupGroup } from '../../server/runtime/process/sandboxes.js';
import { contractFetch } from '../support/contract.js';
import { caller } from '../support/http.js';
import { reapSessionProcesses, startService, tempDataDir, testFleet } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const tableExists = (table: string) => spawnSync('/usr/sbin/nft', ['list', 'table', 'inet', table], { stdio: 'ignore' }).status === 0;

describe("an instance's egress table when the service stops", () => {
  it('stays while a game server of it runs, and goes with a clean stop once none is left', async () => {
    const dataDir = tempDataDir();
    const table = egressTable(instanceCgroupGroup(dataDir));
    const fleet = testFleet();
    const contract = contractFetch();
    try {
      let running = await startService({ dataDir }, { fleet });
      expect(tableExists(table)).toBe(true);
      let call = caller(running.url, running.token, contract);
      expect((await call('POST', '/session', { body: { id: 'outlives', location: 'local-a', image: 'echo' } })).status).toBe(201);
      await waitForStatus(call, 'outlives', ['running']);
      await running.close({ keepData: true });
      expect(tableExists(table)).toBe(true);

      // Started again on its data directory, it adopts the game server; stopped once that ended, its table goes.
      running = await startService({ dataDir }, { fleet });
      call = caller(running.url, running.token, contract);
      await waitForStatus(call, 'outlives', ['running']);
      expect((await call('DELETE', '/session/outlives')).status).toBe(204);
      await waitForStatus(call, 'outlives', ['exited']);
      await running.close({ keepData: true });
      expect(tableExists(table)).toBe(false);
    } finally {
      await reapSessionProcesses(dataDir);
      removeTree(dataDir);
    }
    expect(contract.violations).toEqual([]);
  });
});
