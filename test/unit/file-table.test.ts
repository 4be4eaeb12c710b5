/**
 * The start-up warning when the process runtime's fleet, full, could take more than half of the
 * host's file table (fs.file-max): sessionOpenFiles + openFiles per sandboxed session (pids x
 * openFiles unsandboxed) times the nodes' capacity.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetConfig } from '../../server/config/fleet-types.js';
import { defaultLimits } from '../../server/domain/catalog.js';
import { fileTableWarning, hostFileMax, mayRaiseLimits, openFilesLimitWarning, ownHardOpenFiles, sessionFileBound } from '../../server/runtime/process/file-table.js';

const fleet = (capacity: number, isolation: FleetConfig['runtime']['isolation'] = 'sandbox'): FleetConfig =>
  ({
    runtime: { driver: 'process', stopGraceSeconds: 1, isolation },
    locations: [{ id: 'a', nodes: [{ id: 'a-1', host: '127.0.0.1', ports: { from: 1, to: 2 }, capacity }] }],
    images: [],
  }) as unknown as FleetConfig;
const limits = { ...defaultLimits, pids: 64, openFiles: 1000, sessionOpenFiles: 9000 };

describe('the host file table warning', () => {
  it('bounds a sandboxed session by sessionOpenFiles plus its pasta\'s openFiles, an unsandboxed one by pids x openFiles', () => {
    expect(sessionFileBound([limits], true)).toBe(10_000);
    expect(sessionFileBound([limits], false)).toBe(64_000);
    // The most generous image counts; a cap above pids x openFiles is no cap.
    expect(sessionFileBound([limits, { ...limits, sessionOpenFiles: 1_000_000 }], true)).toBe(65_000);
  });

  it('warns when the full fleet could take more than half of fs.file-max, and only then', () => {
    expect(fileTableWarning(fleet(10), [limits], 200_000)).toBeUndefined();
    expect(fileTableWarning(fleet(11), [limits], 200_000)).toMatch(/11 session slots may hold 110000 open files .* fs\.file-max \(200000\)/);
    expect(fileTableWarning(fleet(11), [limits], undefined)).toBeUndefined();
    expect(fileTableWarning(fleet(3, 'none'), [limits], 200_000)).toMatch(/3 session slots may hold 192000/);
  });

  it('reads fs.file-max, and nothing where it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'file-max-'));
    writeFileSync(join(dir, 'file-max'), '2466165\n');
    expect(hostFileMax(join(dir, 'file-max'))).toBe(2_466_165);
    expect(hostFileMax(join(dir, 'missing'))).toBeUndefined();
  });
});

describe('the open-files limit warning', () => {
  const dir = mkdtempSync(join(tmpdir(), 'open-files-limit-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it("reads the service's hard limit and whether it may raise it from /proc's formats", () => {
    const limitsText = 'Limit                     Soft Limit           Hard Limit           Units     \nMax open files            1024                 4096                 files     \n';
    expect(ownHardOpenFiles(file('limits', limitsText))).toBe(4096);
    expect(ownHardOpenFiles(file('unlimited', limitsText.replace('4096     ', 'unlimited')))).toBeUndefined();
    // CAP_SYS_RESOURCE is bit 24.
    expect(mayRaiseLimits(file('root', 'Name:\tnode\nCapEff:\t000001ffffffffff\n'))).toBe(true);
    expect(mayRaiseLimits(file('plain', 'Name:\tnode\nCapEff:\t0000000000000000\n'))).toBe(false);
    expect(mayRaiseLimits(file('no-resource', 'CapEff:\t000001fffeffffff\n'))).toBe(false);
  });

  it('warns when an image asks more open files than the service may give, and only then', () => {
    expect(openFilesLimitWarning([limits], 512, false)).toMatch(/openFiles \(1000\) passes this service's hard open-files limit \(512\)/);
    expect(openFilesLimitWarning([limits], 512, true)).toBeUndefined();
    expect(openFilesLimitWarning([limits], 1000, false)).toBeUndefined();
    expect(openFilesLimitWarning([limits], undefined, false)).toBeUndefined();
  });
});
