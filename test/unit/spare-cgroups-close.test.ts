/**
 * A process runtime closed while its next spare is still being spawned leaves no spare cgroups:
 * the spawn fails (its spawner goes with the runtime), and the cgroups made for it are removed.
 * They stayed, and a later runtime of the same group found a spare cgroup too many.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cgroupProblem, createSpareCgroups, removeInstanceCgroups } from '../../server/runtime/process/cgroups.js';
import { SpareSupervisor } from '../../server/runtime/process/spare-supervisor.js';
import { eventually } from '../support/eventually.mjs';

const ROOT = '/sys/fs/cgroup';
const group = `test-spare-close-${process.pid}`;
const spares = (controller: string) => {
  const dir = join(ROOT, controller, 'session-host', group);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('spare-')) : [];
};

describe.skipIf(process.getuid?.() !== 0 || cgroupProblem(ROOT) !== undefined)('a spare supervisor closed while it spawns', () => {
  afterAll(() => removeInstanceCgroups(ROOT, group));

  it('removes the cgroups it made for the spare it was spawning', async () => {
    const script = fileURLToPath(new URL('../../server/runtime/process/supervisor.mjs', import.meta.url));
    const supervisor = new SpareSupervisor(script, group, () => createSpareCgroups(ROOT, group));
    expect(spares('memory')).toHaveLength(1);
    supervisor.close();
    await eventually(async () => ['memory', 'pids', 'cpu'].every((c) => spares(c).length === 0), { timeoutMs: 15_000, what: 'the spare cgroups removed' });
  });
});
