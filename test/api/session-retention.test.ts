/**
 * Ended sessions' directories go after `runtime.retentionHours`; live ones stay, however old; and
 * beyond `runtime.retentionMb` in all, the oldest of the account retaining the most go first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackerImage } from '../support/attacker.js';
import { eventually } from '../support/eventually.mjs';
import { twinAccounts } from '../support/per-account-ids.js';
import { testFleet, useService } from '../support/service.js';
import { runtimeDir, waitForStatus } from '../support/sessions.js';

const RETENTION_MS = 1000;

describe('retention of ended session directories', () => {
  const service = useService({}, { fleet: testFleet((fleet) => (fleet.runtime.retentionHours = RETENTION_MS / 3_600_000)) });
  const dirOf = (id: string) => runtimeDir(service.running, id);

  it('purges an ended session\'s directory after the retention and keeps a live one', async () => {
    const [ended, live] = [`r-${process.pid}-ended`, `r-${process.pid}-live`];
    for (const id of [ended, live]) {
      expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
      await waitForStatus(service.call, id, ['running']);
    }
    await service.call('DELETE', `/session/${ended}`);
    await waitForStatus(service.call, ended, ['exited']);
    expect(existsSync(await dirOf(ended))).toBe(true);
    const deadline = Date.now() + 10 * RETENTION_MS;
    while (existsSync(await dirOf(ended)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(await dirOf(ended))).toBe(false);
    // Well past the retention since it started, the live session's directory is still there.
    expect(existsSync(join(await dirOf(live), 'work'))).toBe(true);
    expect((await service.call('GET', `/session/${live}`)).json.status).toBe('running');
  });
});

describe('the disk budget of ended session directories (runtime.retentionMb)', () => {
  const BUDGET_MB = 3;
  const service = useService({}, { fleet: testFleet((fleet) => {
    fleet.runtime.retentionMb = BUDGET_MB;
    fleet.images.push(attackerImage());
  }) });
  const dirOf = (id: string) => runtimeDir(service.running, id);

  it('removes the oldest ended directories once they hold more than the budget, within the retention', async () => {
    // Each leaves a 1 MiB file (and its log, its state): three of them pass the 3 MiB budget.
    const ids = [1, 2, 3].map((n) => `b-${process.pid}-${n}`);
    for (const id of ids) await filledAndEnded(service.call, id);
    const [oldest, middle, newest] = await Promise.all(ids.map(dirOf));
    await eventually(async () => !existsSync(oldest!), { timeoutMs: 10_000, what: 'the oldest directory removed' });
    expect(existsSync(join(middle!, 'work', 'fill-0'))).toBe(true);
    expect(existsSync(join(newest!, 'work', 'fill-0'))).toBe(true);
  });
});

/** A session that leaves a 1 MiB file (and its log, its state) in its directory, ended. */
async function filledAndEnded(call: ReturnType<typeof useService>['call'], id: string) {
  expect((await call('POST', '/session', { body: { id, location: 'local-a', image: 'attacker', env: { ATTACK: 'fill', FILL_MB: '1' } } })).status).toBe(201);
  await waitForStatus(call, id, ['running']);
  await call('DELETE', `/session/${id}`);
  await waitForStatus(call, id, ['exited']);
}

describe('the disk budget shared by accounts', () => {
  const service = useService({}, { fleet: testFleet((fleet) => {
    fleet.runtime.retentionMb = 3;
    fleet.images.push(attackerImage());
  }) });

  it("takes from the account retaining the most: another account's older directory stays", async () => {
    const [busy, quiet] = await twinAccounts(service.running, service.contract);
    await filledAndEnded(quiet.call, 'quiet');
    const ids = [1, 2, 3].map((n) => `busy-${n}`);
    for (const id of ids) await filledAndEnded(busy.call, id);
    const [first, second, third] = await Promise.all(ids.map((id) => runtimeDir(service.running, id, { accountId: busy.accountId })));
    // Oldest first across accounts would have removed the quiet account's, then the busy one's first.
    await eventually(async () => !existsSync(first!) && !existsSync(second!), { timeoutMs: 10_000, what: "the busy account's two oldest removed" });
    expect(existsSync(join(third!, 'work', 'fill-0'))).toBe(true);
    expect(existsSync(join(await runtimeDir(service.running, 'quiet', { accountId: quiet.accountId }), 'work', 'fill-0'))).toBe(true);
  });
});
