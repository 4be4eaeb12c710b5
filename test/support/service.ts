/** Starts the real service in-process on a loopback port, with its own data directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../server/config.js';
import { createService, type Service } from '../../server/service.js';

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
    bootstrapToken: TEST_BOOTSTRAP_TOKEN,
    secretKey: undefined,
    defaultQuotaMinutes: 6000,
    logLevel: 'silent',
    fleetFile: join(dataDir, 'fleet.json'),
    runtime: undefined,
    ...overrides,
  };
}

export async function startService(
  overrides: Partial<Config> = {},
  options: { now?: () => number } = {},
): Promise<RunningService> {
  const config = testConfig(overrides);
  const service = createService(config, options);
  const url = await service.listen();
  return {
    url,
    token: config.bootstrapToken ?? service.bootstrapped?.generatedToken ?? '',
    dataDir: config.dataDir,
    service,
    async close({ keepData = false } = {}) {
      await service.close();
      if (!keepData) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
