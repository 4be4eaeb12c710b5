/**
 * However many filter shapes callers send, the service keeps a bounded number of prepared
 * statements: its resident memory (measured on a real service process) stays within a bound
 * across 6,000 distinct shapes. A statement per shape, cached forever, grew it by hundreds of MiB.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { tempDataDir, TEST_BOOTSTRAP_TOKEN } from '../support/service.js';

// Measured on Node 24: 33 to 80 MiB of heap slack with values bound as parameters (the garbage of
// 6,000 requests, returned to the system when V8 pleases); a statement per shape cached forever
// grows it by 232 MiB. The bound sits between the two.
const BOUND_MIB = 128;

function residentMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return kib / 1024;
}

describe('session list memory', () => {
  const dataDir = tempDataDir();
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`stays within ${BOUND_MIB} MiB of growth across 6,000 distinct filter shapes`, async () => {
    service = await spawnService({ DATA_DIR: dataDir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, RUNTIME: 'simulated', LOG_LEVEL: 'warn' });
    const headers = { Authorization: `Bearer ${TEST_BOOTSTRAP_TOKEN}` };
    const shapes: string[] = [];
    for (let limit = 1; limit <= 600; limit++) {
      for (let labels = 0; labels < 10; labels++) {
        const filters = Array.from({ length: labels }, (_, i) => `&filter[k${i}]=v&filterNot[n${i}]=w`).join('');
        shapes.push(`/session?all=true&limit=${limit}${filters}`);
      }
    }
    expect(new Set(shapes).size).toBe(6000);
    const get = async (path: string) => {
      const response = await fetch(service!.url + path, { headers });
      await response.arrayBuffer();
      return response.status;
    };
    // Warm up (JIT, allocator, the first statements) before the baseline.
    for (const path of shapes.slice(0, 100)) expect(await get(path)).toBe(200);
    const before = residentMiB(service.child.pid!);
    for (let i = 100; i < shapes.length; i += 10) {
      const statuses = await Promise.all(shapes.slice(i, i + 10).map(get));
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    const grown = residentMiB(service.child.pid!) - before;
    expect(grown).toBeLessThan(BOUND_MIB);
  }, 180_000);
});
