/**
 * The coordination's dedicated connection, reopened after a drop: a reopened connection its
 * builder cannot use (LISTEN refused on a standby, a pooler refusing SET) is closed before the
 * next try, so retries never pile up connections on the server.
 */
import { describe, expect, it } from 'vitest';
import { DedicatedConnection } from '../../server/cluster/pg-connection.js';
import { eventually } from '../support/eventually.mjs';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { useDatabase } from '../support/use-database.js';

const missing = clusterTestsMissing();
describe.skipIf(missing)(`the dedicated connection${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const db = useDatabase('dedicated_connection');
  const NAME = `dedicated-${process.pid}`;
  const ours = async () =>
    Number((await db.admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [NAME])).rows[0]!.n);

  it('closes a reopened connection that could not be set up before trying again', async () => {
    let refusals = 0;
    let refusing = false;
    let opened = 0;
    const connection = new DedicatedConnection(
      { connectionString: db.url, application_name: NAME },
      {
        async opened() {
          if (refusing && refusals++ < 5) throw new Error('refused (as a standby refuses LISTEN)');
          opened++;
        },
        dropped: () => {},
        notification: () => {},
        failed: () => {},
      },
    );
    try {
      await connection.open();
      expect(await ours()).toBe(1);
      refusing = true;
      await db.admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [NAME]);
      await eventually(() => opened === 2, { what: 'reopened after five refused set-ups', timeoutMs: 20_000 });
      expect(refusals).toBe(6);
      await eventually(async () => (await ours()) === 1, { what: 'one connection left on the server' });
    } finally {
      await connection.close();
    }
  });
});
