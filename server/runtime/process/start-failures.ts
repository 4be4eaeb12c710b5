/**
 * Starts that fail, as the operator sees them: each is logged at warn with its cause, and one that
 * failed for lack of space on the data directory's disk (ENOSPC, EDQUOT: its bytes or its inodes,
 * which empty files exhaust while bytes remain, and which the store, whose files exist, never
 * notices) makes the service degraded (GET /readyz) until the disk has room again: free bytes and
 * free inodes, read with statfs every second while degraded.
 */
import { statfs } from 'node:fs/promises';
import type { FailureReporter } from '../../domain/ports/failure-reporter.js';

/** The health component of starts that found no space. */
export const SESSION_DIRECTORIES = 'session-directories';
/** Room again: what a few starts need, so one freed file does not make it flap. */
const MIN_FREE_BYTES = 16 * 1024 * 1024;
const MIN_FREE_INODES = 256;
const RECHECK_MS = 1000;

export interface StartFailureOptions {
  reporter?: FailureReporter;
  log?: { warn(fields: object, message: string): void };
}

export const isSpaceError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
};

/** Whether `dir`'s filesystem has room for starts: bytes, and inodes where it counts them (btrfs reports none). */
export async function hasRoom(dir: string): Promise<boolean> {
  const disk = await statfs(dir);
  const inodes = disk.files === 0 || disk.ffree >= MIN_FREE_INODES;
  return inodes && disk.bavail * disk.bsize >= MIN_FREE_BYTES;
}

export class StartFailures {
  private recheck: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: StartFailureOptions,
  ) {}

  failed(sessionId: string, error: unknown): void {
    this.options.log?.warn({ err: error, sessionId }, 'session start failed');
    if (!isSpaceError(error) || !this.options.reporter) return;
    this.options.reporter.failed(SESSION_DIRECTORIES, error);
    this.recheck ??= setInterval(() => void this.check(), RECHECK_MS).unref();
  }

  close(): void {
    clearInterval(this.recheck);
    this.recheck = undefined;
  }

  private async check(): Promise<void> {
    if (!(await hasRoom(this.dir).catch(() => false))) return;
    this.close();
    this.options.reporter?.recovered(SESSION_DIRECTORIES);
  }
}
