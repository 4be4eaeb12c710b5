/**
 * An instance's coordination alone, in a process of its own, so a test can SIGKILL it: it
 * leads `ROLE`, holds the lease `LEASE`, and prints `gained <what>` / `lost <what>` lines.
 */
import { PostgresCoordination } from '../../../server/cluster/postgres.js';

const coordination = await PostgresCoordination.start({
  databaseUrl: process.env.DATABASE_URL!,
  instanceId: process.env.INSTANCE_ID!,
  leases: { leaseMs: Number(process.env.LEASE_MS), renewEveryMs: Number(process.env.LEASE_MS) / 5 },
  leaderTryEveryMs: 100,
});
const report = (what: string) => ({
  gained: () => process.stdout.write(`gained ${what}\n`),
  lost: () => process.stdout.write(`lost ${what}\n`),
});
coordination.lead(process.env.ROLE!, report('leader'));
coordination.lease(process.env.LEASE!, report('lease'));
process.stdout.write('started\n');
