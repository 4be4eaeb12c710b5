/**
 * Instances joined on one PostgreSQL: one quota enforcer and one retention worker among them,
 * each account's webhooks delivered by exactly one, another instance's events heard, and when
 * a member goes its roles and accounts pass to the others within seconds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { joinCluster, type Membership } from '../../server/cluster/membership.js';
import { PostgresCoordination } from '../../server/cluster/postgres.js';
import { eventually } from '../support/eventually.mjs';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { createDatabase } from '../support/postgres.mjs';

const ACCOUNTS = ['acc-1', 'acc-2', 'acc-3', 'acc-4', 'acc-5', 'acc-6'];

interface Member {
  id: string;
  coordination: PostgresCoordination;
  membership: Membership;
  enforcing: () => boolean;
  /** Accounts whose events this member heard of from others, and the webhook nudges it got. */
  heard: string[];
  notified: string[];
  change(accountId: string): void;
}

const missing = clusterTestsMissing();
describe.skipIf(missing)(`cluster membership${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const members: Member[] = [];
  afterAll(async () => {
    for (const member of members) await leave(member);
  });

  async function join(url: string, id: string): Promise<Member> {
    const coordination = await PostgresCoordination.start({ databaseUrl: url, instanceId: id, leases: { leaseMs: 2500, renewEveryMs: 500 }, leaderTryEveryMs: 100 });
    let enforcing = true;
    const changeListeners: ((change: { session: { accountId: string } }) => void)[] = [];
    const member = { id, coordination, heard: [] as string[], notified: [] as string[] } as Member;
    member.enforcing = () => enforcing;
    member.change = (accountId) => changeListeners.forEach((l) => l({ session: { accountId } }));
    member.membership = joinCluster(coordination, {
      tokens: { onForget: () => {}, forgetVerifiedElsewhere: () => {} },
      sessions: { onChange: (listener) => (changeListeners.push(listener), () => {}) },
      quota: { enforce: (on) => (enforcing = on), recompute: () => {} },
      webhooks: { notify: (accountId) => member.notified.push(accountId) },
      accountsWithSubscriptions: () => ACCOUNTS,
      events: { poke: (accountId) => member.heard.push(accountId), pokeAll: () => {} },
      onError: (error) => {
        throw error;
      },
    });
    members.push(member);
    return member;
  }

  async function leave(member: Member) {
    if (!members.includes(member)) return;
    members.splice(members.indexOf(member), 1);
    await member.membership.close();
    await member.coordination.close();
  }

  const deliverers = (account: string) => members.filter((m) => m.membership.delivers(account)).map((m) => m.id);

  it('has one enforcer, one retention worker and one deliverer per account, and hands them on when a member leaves', async () => {
    const url = await createDatabase('membership');
    const [a, b, c] = [await join(url, 'a'), await join(url, 'b'), await join(url, 'c')];
    const pruners = () => members.filter((m) => m.membership.prunes());
    await eventually(() => ACCOUNTS.every((account) => deliverers(account).length === 1) && members.filter((m) => m.enforcing()).length === 1 && pruners().length === 1, {
      what: 'every account delivered by one member, one enforcer, one retention worker',
    });
    expect(pruners()).toHaveLength(1);

    // Another member's change is heard (and nudges webhooks); a member's own is not echoed back.
    a.change('acc-3');
    await eventually(() => b.heard.includes('acc-3') && c.heard.includes('acc-3'), { what: 'the others hearing of the change' });
    expect(a.heard).not.toContain('acc-3');

    // The enforcer and the holder of acc-1 leave: both roles pass on.
    const enforcer = members.find((m) => m.enforcing())!;
    const holder = members.find((m) => m.membership.delivers('acc-1'))!;
    await leave(enforcer);
    if (holder !== enforcer) await leave(holder);
    // Each role is taken over on its own lease's schedule: wait for all three, then hold each to one.
    await eventually(() => members.filter((m) => m.enforcing()).length === 1 && ACCOUNTS.every((account) => deliverers(account).length === 1) && pruners().length === 1, {
      what: 'the roles taken over',
      timeoutMs: 10_000,
    });
    expect(pruners()).toHaveLength(1);
  });
});
