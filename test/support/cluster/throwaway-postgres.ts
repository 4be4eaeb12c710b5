/**
 * A throwaway PostgreSQL cluster for the cluster tests: Debian's binaries, a temporary data
 * directory, a free port on loopback, torn down after. PostgreSQL refuses to run as root, so as
 * root it runs as the `postgres` user. Without the binaries, `postgresMissing()` says why, and
 * the tests skip.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  /** postgres://… of the default database. */
  url: string;
  port: number;
  /** A new, empty database on the cluster; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export function postgresMissing(): string | undefined {
  return existsSync(join(BIN, 'postgres')) ? undefined : `no PostgreSQL binaries in ${BIN} (apt-get install postgresql)`;
}

function asPostgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function startPostgres(): Promise<ThrowawayPostgres> {
  const user = asPostgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'session-host-pg-'));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  const data = join(dir, 'data');
  execFileSync(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    ...user,
    stdio: 'pipe',
  });
  const port = await freePort();
  const server: ChildProcess = spawn(
    join(BIN, 'postgres'),
    // fsync off: these clusters die with the test; what is proven is the service's behaviour.
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
    { ...user, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (attempt > 200 || server.exitCode !== null) throw new Error(`PostgreSQL did not start: ${String(error)}\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    port,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = once(server, 'exit');
        // Immediate shutdown: the data directory is thrown away.
        server.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
