/** Starts the real service in-process on a loopback port, with its own data directory. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { contractFetch } from './contract.js';
import { createDatabase } from './postgres.mjs';
import { caller } from './http.js';
import { DEFAULT_RETENTION_HOURS, DEFAULT_SUBSCRIPTION_LIMIT, DEFAULT_TRACE_SAMPLING, type Config } from '../../server/config/environment.js';
import { DEFAULT_STREAM_LIMITS } from '../../server/http/open-streams.js';
import { removeTree } from '../../server/runtime/process/retention.js';
import { DEFAULT_SERVER_LIMITS } from '../../server/http/request-limits.js';
import { defaultFleet } from '../../server/config/fleet.js';
import type { FleetConfig } from '../../server/config/fleet-types.js';
import { removeInstanceCgroups } from '../../server/runtime/process/cgroups.js';
import { killSessionProcesses } from './session-processes.js';
import { egressTable, removeEgressFirewall } from '../../server/runtime/process/egress-firewall.js';
import { instanceCgroupGroup } from '../../server/runtime/process/sandboxes.js';
import { createService, type Service } from '../../server/service.js';

export const TEST_ADMIN = { email: 'admin@example.com', password: 'test-admin-password' };
export const TEST_BOOTSTRAP_TOKEN = 'gsh_TestBootstrapToken0000000000000000000000';

export interface RunningService {
  url: string;
  token: string;
  dataDir: string;
  service: Service;
  /** Close the service; the data directory is removed unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'session-host-test-'));
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = overrides.dataDir ?? tempDataDir();
  return {
    host: '127.0.0.1',
    port: 0,
    dataDir,
    databaseUrl: undefined,
    bootstrapToken: TEST_BOOTSTRAP_TOKEN,
    secretKey: undefined,
    defaultQuotaMinutes: 6000,
    shutdownDelayMs: 0,
    logLevel: 'silent',
    fleetFile: join(dataDir, 'fleet.json'),
    runtime: undefined,
    sandbox: false,
    quota: { terminate: true, graceSeconds: 60, tickMs: 50 },
    // Generous: tests that are not about the start rate must not meet it.
    startRate: { perSecond: 1000, burst: 1000, burstWindowSeconds: 1 },
    webhookBackoffMs: 100,
    simulated: { readyMs: 50, stopMs: 30 },
    admin: { ...TEST_ADMIN },
    http: { ...DEFAULT_SERVER_LIMITS },
    // Tests receive webhooks on loopback: the operator setting that allows it.
    webhookAllowedNetworks: ['127.0.0.0/8'],
    retentionHours: DEFAULT_RETENTION_HOURS,
    storageBudgetMiB: 64,
    limits: { streams: { ...DEFAULT_STREAM_LIMITS }, subscriptions: DEFAULT_SUBSCRIPTION_LIMIT },
    observability: { metrics: true, topAccounts: 10, overviewIntervalSeconds: 10, exportTraces: false, traceSampling: DEFAULT_TRACE_SAMPLING },
    ...overrides,
  };
}

/** A fleet for tests: the defaults with changes applied (ports away from a dev server's). */
export function testFleet(change: (fleet: FleetConfig) => void = () => {}): FleetConfig {
  const fleet = structuredClone(defaultFleet);
  fleet.runtime.stopGraceSeconds = 2;
  // Test files run in parallel: each service's nodes take distinct random blocks of 50 ports of 10000-19999, below
  // the kernel's ephemeral range (32768-60999 here), so an outgoing connection never holds a game port.
  const blocks = new Set<number>();
  for (const location of fleet.locations) {
    for (const node of location.nodes) {
      let block: number;
      do block = Math.floor(Math.random() * 200);
      while (blocks.has(block));
      blocks.add(block);
      node.ports = { from: 10000 + block * 50, to: 10000 + block * 50 + 49 };
    }
  }
  // Session uids likewise: a block of 200 of their own per service, above the default range
  // (400,000-499,999) that services started with a fleet of their own use: an instance's egress
  // firewall judges its whole range, so a default-range one (kept after a SIGKILL) would refuse the
  // private network a test service's fleet allows (containment-egress.test.ts failed so).
  const uidBlock = Math.floor(Math.random() * 5000);
  fleet.runtime.uids = { from: 500_000 + uidBlock * 200, to: 500_000 + uidBlock * 200 + 199 };
  change(fleet);
  return fleet;
}

export function writeFleet(dataDir: string, fleet: FleetConfig): void {
  writeFileSync(join(dataDir, 'fleet.json'), JSON.stringify(fleet, null, 2));
}

/**
 * Game servers outlive the service by design; a test that fails half-way must not leave them
 * running. Kills every supervisor and game server recorded under the data directory.
 */
export async function reapSessionProcesses(dataDir: string): Promise<void> {
  killSessionProcesses(join(dataDir, 'sessions'));
  // Their cgroups too, once the killed processes are gone (dying takes a moment).
  for (let attempt = 0; attempt < 20 && !removeInstanceCgroups('/sys/fs/cgroup', instanceCgroupGroup(dataDir)); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  // Its egress firewall: the data directory is gone with the test (the service leaves it for its game servers).
  removeEgressFirewall('/usr/sbin/nft', egressTable(instanceCgroupGroup(dataDir)));
}


/** SESSION_HOST_TEST_STORE=postgres runs every test service on PostgreSQL (CI's second pass). */
export const testStore: 'sqlite' | 'postgres' = process.env.SESSION_HOST_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
const databaseOf = new Map<string, Promise<string>>();

/**
 * The database of a test service on PostgreSQL: one per data directory (a service restarted on
 * its data directory finds its data again); undefined on SQLite, which lives in the data directory.
 */
export function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  if (testStore === 'sqlite') return Promise.resolve(undefined);
  let url = databaseOf.get(dataDir);
  if (!url) databaseOf.set(dataDir, (url = createDatabase('api')));
  return url;
}

export async function startService(
  overrides: Partial<Config> = {},
  /** `fleet: null` leaves the service to write its own default fleet file. */
  /** `now` alone moves the service's whole clock; with `monotonic`, `now` is only the wall clock (to step it). */
  options: Parameters<typeof createService>[1] & { fleet?: FleetConfig | null } = {},
): Promise<RunningService> {
  const config = testConfig(overrides);
  if (!('databaseUrl' in overrides)) config.databaseUrl = await testDatabaseUrl(config.dataDir);
  if (options.fleet !== null) writeFleet(config.dataDir, options.fleet ?? testFleet());
  const service = await createService(config, { ...options, monotonic: options.monotonic ?? options.now });
  const url = await service.listen();
  return {
    url,
    token: config.bootstrapToken ?? service.bootstrapped?.generatedToken ?? '',
    dataDir: config.dataDir,
    service,
    async close({ keepData = false } = {}) {
      await service.close();
      if (!keepData) await reapSessionProcesses(config.dataDir);
      // rm, not rmSync: a hostile game server's tree may nest past PATH_MAX (retention.ts).
      if (!keepData) removeTree(config.dataDir);
    },
  };
}

/**
 * The usual frame of an API test file: a service for the file's tests, a contract-checking
 * caller, and, when the file is done, the service closed and no contract violation recorded.
 */
export function useService(
  overrides: Partial<Config> = {},
  options: Parameters<typeof startService>[1] = {},
): { running: RunningService; call: ReturnType<typeof caller>; contract: ReturnType<typeof contractFetch> } {
  const contract = contractFetch();
  const frame = { contract } as { running: RunningService; call: ReturnType<typeof caller>; contract: typeof contract };
  beforeAll(async () => {
    frame.running = await startService(overrides, options);
    frame.call = caller(frame.running.url, frame.running.token, contract);
  });
  afterAll(async () => {
    await frame.running.close();
    expect(contract.violations).toEqual([]);
  });
  return frame;
}
