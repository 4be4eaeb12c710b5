/** For tests that interleave transactions on PostgreSQL: when one of them has begun waiting on a lock. */
import pg from 'pg';

/**
 * Resolves once some connection to the database waits on a lock (pg_stat_activity), or once
 * `orElse` settles: without the lock under test, the transaction that should wait finishes.
 */
export async function lockWaitOr(url: string, orElse: Promise<unknown>): Promise<void> {
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  let done = false;
  const waiting = async () => {
    while (!done) {
      const { rows } = await watcher.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  try {
    await Promise.race([waiting(), orElse.then(() => {}, () => {})]);
  } finally {
    done = true;
    await watcher.end();
  }
}
