/** A cluster started by startPostgres(). */
export interface StartedPostgres {
  /** Admin URL (TCP on loopback, with the password) of the `postgres` database. */
  url: string;
  /** The temporary directory: data, socket, log. */
  dir: string;
  /** Stop the cluster and remove its directory. */
  stop(): void;
}

/** Starts a throwaway cluster; with `owner`, a watchdog stops it once that pid is gone. */
export function startPostgres(options?: { dir?: string; owner?: number }): Promise<StartedPostgres>;
/** Stops the cluster in `dir` and removes the directory. */
export function stopPostgres(dir: string): void;
/** The admin URL of this process's test cluster (SESSION_HOST_POSTGRES_URL, or one started on first use). */
export function postgresCluster(): Promise<string>;
/** A fresh, empty database in the test cluster; returns its URL. */
export function createDatabase(prefix?: string): Promise<string>;
