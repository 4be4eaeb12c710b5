#!/usr/bin/env node
/**
 * A throwaway PostgreSQL cluster for tests and CI: initdb into a temporary directory, a free
 * loopback port plus a unix socket in that directory, password authentication over TCP (so a
 * wrong password is refused for real), fsync and synchronous commit on (an acknowledged write is
 * on disk, as in production: the durability tests mean something). PostgreSQL refuses to run as
 * root, so as root the cluster runs as the `postgres` user (Debian's package creates it).
 *
 * In tests:   const url = await createDatabase()   // a fresh database of its own, dropped with the cluster
 *             await postgresCluster()               // the cluster's admin URL
 * The cluster is the one named by SESSION_HOST_POSTGRES_URL when set (CI starts one for the whole
 * run), else one started for this process and stopped when it exits (a watchdog also stops it if
 * the process is killed).
 *
 * From a shell (CI):
 *   node test/support/postgres.mjs start   prints SESSION_HOST_POSTGRES_URL=postgres://...; reuses a running one
 *   node test/support/postgres.mjs database  prints DATABASE_URL=postgres://... (a fresh database in that cluster)
 *   node test/support/postgres.mjs stop
 * The shell's cluster lives in SESSION_HOST_POSTGRES_DIR (default /var/tmp/session-host-postgres).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

const BIN = process.env.SESSION_HOST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'sessionhost';
const SHELL_DIR = process.env.SESSION_HOST_POSTGRES_DIR ?? '/var/tmp/session-host-postgres';

/** The command prefix that runs a PostgreSQL binary as a non-root user, and that user's uid/gid. */
function runAs() {
  if (process.getuid?.() !== 0) return { prefix: [], uid: undefined, gid: undefined };
  let uid;
  let gid;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    throw new Error('PostgreSQL refuses to run as root and there is no `postgres` user: install Debian\'s postgresql package, or run as another user');
  }
  return { prefix: ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'], uid, gid };
}

function run(user, binary, args) {
  const [command, ...rest] = [...user.prefix, join(BIN, binary), ...args];
  return execFileSync(command, rest, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster in `dir` (created, must not hold one). Returns its admin URL (TCP, with the
 * password) and a stop function. With `owner`, a detached watchdog stops the cluster and removes
 * `dir` once that pid is gone, however it ended.
 */
export async function startPostgres({ dir = mkdtempSync(join(tmpdir(), 'session-host-pg-')), owner } = {}) {
  const user = runAs();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user.uid !== undefined) chownSync(pwfile, user.uid, user.gid);
  // --no-sync skips flushing initdb's own files only (a throwaway cluster is not kept across a
  // machine crash); the server below runs with fsync on, so every commit is flushed.
  run(user, 'initdb', ['-D', data, '-U', SUPERUSER, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  rmSync(pwfile);
  let port;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=on',
      '-c synchronous_commit=on',
      '-c max_connections=400',
      '-c shared_buffers=64MB',
    ].join(' ');
    try {
      run(user, 'pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'postgres.log'), '-o', options]);
      break;
    } catch (error) {
      // Another process took the port between the probe and the start: try another.
      if (attempt >= 3) throw new Error(`PostgreSQL did not start: ${readLog(dir) || error.message}`);
    }
  }
  const url = `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`;
  writeFileSync(join(dir, 'url'), url, { mode: 0o600 });
  if (owner !== undefined) watchdog(user, dir, owner);
  return {
    url,
    dir,
    stop: () => stopPostgres(dir),
  };
}

function readLog(dir) {
  try {
    return readFileSync(join(dir, 'postgres.log'), 'utf8').trim().split('\n').slice(-5).join('\n');
  } catch {
    return '';
  }
}

/** Stops the cluster in `dir` (immediate: a throwaway one needs no checkpoint) and removes `dir`. */
export function stopPostgres(dir) {
  try {
    if (existsSync(join(dir, 'data', 'postmaster.pid'))) run(runAs(), 'pg_ctl', ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function watchdog(user, dir, owner) {
  const stop = [...user.prefix, join(BIN, 'pg_ctl'), 'stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w'].map(quote).join(' ');
  const script = `while kill -0 ${owner} 2>/dev/null; do sleep 1; done; ${stop} >/dev/null 2>&1; rm -rf ${quote(dir)}`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

const quote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

/** Whether the cluster behind `url` answers. */
async function answers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

let cluster;
/** The admin URL of this process's test cluster: SESSION_HOST_POSTGRES_URL, or one started on first use. */
export function postgresCluster() {
  cluster ??= (async () => {
    if (process.env.SESSION_HOST_POSTGRES_URL) return process.env.SESSION_HOST_POSTGRES_URL;
    const started = await startPostgres({ owner: process.pid });
    process.once('exit', () => {
      try {
        stopPostgres(started.dir);
      } catch {
        // The watchdog stops it.
      }
    });
    return started.url;
  })();
  return cluster;
}

let databases = 0;
/** A fresh, empty database in the test cluster; returns its URL. */
export async function createDatabase(prefix = 'test') {
  const admin = await postgresCluster();
  const name = `${prefix}_${process.pid}_${++databases}_${randomBytes(3).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main(command) {
  if (command === 'start') {
    const urlFile = join(SHELL_DIR, 'url');
    if (existsSync(urlFile) && (await answers(readFileSync(urlFile, 'utf8')))) {
      console.log(`SESSION_HOST_POSTGRES_URL=${readFileSync(urlFile, 'utf8')}`);
      return;
    }
    if (existsSync(SHELL_DIR)) stopPostgres(SHELL_DIR);
    const { url } = await startPostgres({ dir: SHELL_DIR });
    console.log(`SESSION_HOST_POSTGRES_URL=${url}`);
  } else if (command === 'database') {
    if (!process.env.SESSION_HOST_POSTGRES_URL) throw new Error('SESSION_HOST_POSTGRES_URL is not set: run `node test/support/postgres.mjs start` first');
    console.log(`DATABASE_URL=${await createDatabase(process.argv[3] ?? 'ci')}`);
  } else if (command === 'stop') {
    stopPostgres(SHELL_DIR);
  } else {
    throw new Error('usage: node test/support/postgres.mjs start|database [prefix]|stop');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv[2]).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
