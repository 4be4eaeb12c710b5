/**
 * Scratch probe (not committed): limit=100 at 10k live sessions on PostgreSQL, on a kept cluster.
 */
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { startPostgres } from '../test/support/postgres.mjs';
import { client, waitAllRunning } from './api.js';
import { fleet } from './fleets.js';
import { runLoad } from './load.js';
import { startOurService } from './service.js';
import { fillSessions } from './setup.js';
import { rounded } from './stats.js';

const DIR = '/tmp/pgb-pg';
const admin = existsSync(`${DIR}/url`) ? readFileSync(`${DIR}/url`, 'utf8') : (await startPostgres({ dir: DIR })).url;
const dbUrl = new URL(admin);
dbUrl.pathname = '/listprobe';
{
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  const { rowCount } = await c.query("SELECT 1 FROM pg_database WHERE datname = 'listprobe'");
  if (!rowCount) await c.query('CREATE DATABASE listprobe');
  await c.end();
}
const token = 'gsh_ProbeBootstrapToken00000000000000000000';
const service = await startOurService({
  runtime: 'simulated',
  fleet: fleet({ driver: 'simulated', capacity: 20_000, ports: { from: 10_000, to: 59_999 } }),
  env: { DATABASE_URL: dbUrl.toString(), SECRET_KEY: Buffer.alloc(32, 3).toString('base64'), BOOTSTRAP_TOKEN: token },
  ...(process.env.PROFILE ? { cpuProfileDir: process.env.PROFILE } : {}),
});
try {
  const api = client(service.url, token);
  const target = Number(process.env.SESSIONS ?? 10_000);
  const have = (await api.get('/session')).body.sessions.length;
  console.log('live', have);
  if (have < target) {
    console.log('fill', await fillSessions({ url: service.url, token }, target - have, `probe${Date.now().toString(36)}`));
    await waitAllRunning(api, 300_000);
  }
  const path = process.env.PATH_Q ?? '/session?limit=100';
  const result = await runLoad({ url: service.url, token, connections: 1, durationSeconds: Number(process.env.SECONDS ?? 5), warmupSeconds: 1, requests: [{ method: 'GET', path }] });
  console.log(path, rounded(result.latencyMs), result.okPerSecond.toFixed(0), 'req/s', JSON.stringify(result.statusCodes));
} finally {
  await service.stop();
}
