/** A small tmpfs a test mounts (root only) and fills to the last byte or inode: a full disk on demand. */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { contractFetch } from './contract.js';
import type { ServiceProcess } from './process.js';
import { reapSessionProcesses } from './service.js';

export const canMount = process.getuid?.() === 0;

export interface SmallDisk {
  /** A fresh data directory on it. */
  dataDir: string;
  /** Fill it up; returns a function that frees the space again. */
  fill(): () => void;
  /** Take its every inode with empty files (bytes stay free); returns a function that frees them again. */
  fillInodes(): () => void;
  unmount(): void;
}

/** `inodes`: the filesystem's inode count (tmpfs `nr_inodes`), default the kernel's. */
export function mountSmallDisk(sizeMb: number, { inodes }: { inodes?: number } = {}): SmallDisk {
  const mountPoint = mkdtempSync(join(tmpdir(), 'session-host-disk-'));
  const options = [`size=${sizeMb}m`, ...(inodes ? [`nr_inodes=${inodes}`] : [])].join(',');
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', mountPoint]);
  const dataDir = join(mountPoint, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  return {
    dataDir,
    fill() {
      const filler = join(mountPoint, 'filler');
      // Big chunks first, then ever smaller ones, until not one byte fits.
      for (const size of [64 * 1024, 4096, 512, 1]) {
        try {
          for (;;) appendFileSync(filler, Buffer.alloc(size, 1));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        }
      }
      return () => rmSync(filler, { force: true });
    },
    fillInodes() {
      const fillers = join(mountPoint, 'fillers');
      mkdirSync(fillers);
      try {
        for (let i = 0; ; i++) writeFileSync(join(fillers, String(i)), '');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
      return () => rmSync(fillers, { recursive: true, force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}

/**
 * For a describe block: a small disk holding the data directory of services the tests spawn
 * (pushed to `processes`); after the block they are killed, their game servers reaped, the disks
 * unmounted, and every answer they gave checked against the spec. `disk` is undefined without root.
 * `sessionsMb`: the session directories (dataDir/sessions) on a small disk of their own, `sessionsDisk`.
 */
export function useServicesOnSmallDisk(sizeMb: number, { sessionsMb }: { sessionsMb?: number } = {}) {
  const disk = canMount ? mountSmallDisk(sizeMb) : undefined;
  const dataDir = disk?.dataDir ?? '';
  const sessionsDir = join(dataDir, 'sessions');
  const sessionsDisk = canMount && sessionsMb ? mountSmallDisk(sessionsMb) : undefined;
  if (sessionsDisk) {
    mkdirSync(sessionsDir, { mode: 0o700 });
    execFileSync('mount', ['--bind', sessionsDisk.dataDir, sessionsDir]);
  }
  const contract = contractFetch();
  const processes: ServiceProcess[] = [];
  afterAll(async () => {
    for (const p of processes) await p.kill('SIGKILL');
    await reapSessionProcesses(dataDir);
    if (sessionsDisk) {
      execFileSync('umount', ['-l', sessionsDir]);
      sessionsDisk.unmount();
    }
    disk?.unmount();
    expect(contract.violations).toEqual([]);
  });
  return { disk, sessionsDisk, dataDir, contract, processes };
}
