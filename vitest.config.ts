import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * Test tiers, as vitest projects: `npx vitest run --project unit` (or api, store, contract,
 * browser, docker, cluster); `npm run test:fast` is unit + api + store. Every test file lands in exactly one tier, by
 * where it lives, so a new file can never fall outside all of them.
 */
export const tiers = ['unit', 'api', 'store', 'contract', 'browser', 'docker', 'cluster'] as const;
export type Tier = (typeof tiers)[number];

export function tierOf(file: string, source: string): Tier {
  if (file.startsWith('test/unit/')) return 'unit';
  if (file.startsWith('test/browser/')) return 'browser';
  // The store adapters (SQLite, and PostgreSQL in a throwaway cluster: test/support/postgres.mjs).
  if (file.startsWith('test/store/')) return 'store';
  // Several instances on a throwaway PostgreSQL (behind HAProxy); skips without PostgreSQL.
  if (file.startsWith('test/cluster/')) return 'cluster';
  // Needs Docker engines (SESSION_HOST_DOCKER_ENGINES); skips without them.
  if (file.startsWith('test/docker/') || /\/docker-[^/]*\.test\.ts$/.test(file)) return 'docker';
  // The service over real HTTP on loopback, in this process; not when it runs as its own process
  // (kill -9 durability, sandbox mode): each of those starts Node anew, so they go with the contract.
  if (file.startsWith('test/api/') && !source.includes('support/process.js')) return 'api';
  // Conformance (fuzz, soak, security, breaking changes), the service as its own process, and the
  // clients against Prism, the sandbox and the service.
  return 'contract';
}

const testFiles = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .map((file) => `test/${file.split('\\').join('/')}`)
  .filter((file) => file.endsWith('.test.ts'))
  .sort();

export default defineConfig({
  test: {
    setupFiles: ['test/support/record-coverage.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files in parallel forks (one fewer than the cores unless --maxWorkers says otherwise; test:fast
    // runs two, its tests mostly wait on processes and sockets), tests within a file in order.
    pool: 'forks',
    projects: tiers.map((name) => ({
      extends: true,
      test: {
        name,
        include: testFiles.filter((file) => tierOf(file, readFileSync(file, 'utf8')) === name),
        // These tiers share one process per worker across files (each file starts and stops its
        // own services): importing the server anew for every file was half their CPU time.
        isolate: !['unit', 'api', 'store'].includes(name),
        // Deployments of several instances, started one by one (each loads Node and tsx) and
        // stopped with their sessions: on 2 busy cores that takes tens of seconds.
        ...(name === 'cluster' ? { hookTimeout: 180_000 } : {}),
      },
    })),
  },
});
