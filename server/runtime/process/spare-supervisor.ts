/**
 * A supervisor spawned ahead of the next start, so a start does not wait for a fork: taken by a
 * start, and replaced once that start's session has been handed over (spawning a process forks
 * this one, which takes milliseconds a start should not wait for).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

interface Spare {
  child: ChildProcess;
  ready: Promise<void>;
}

export class SpareSupervisor {
  private spare: Spare | undefined;
  private closed = false;

  constructor(
    private readonly script: string,
    private readonly instanceId: string,
    /** Told each time a spare is spawned (tests: the order of spawning and handing over). */
    private readonly onSpawned?: () => void,
  ) {
    this.spare = this.spawn();
  }

  /** The spare (or a new one when there is none), once it has started. */
  async take(): Promise<ChildProcess> {
    const spare = this.spare ?? this.spawn();
    this.spare = undefined;
    await spare.ready;
    return spare.child;
  }

  /** A new spare, after the current turn (the POST's answer goes first); none once closed. */
  replenish(): void {
    setImmediate(() => {
      if (!this.closed) this.spare ??= this.spawn();
    });
  }

  /** The spare has no session: closing its stdin empty ends it. */
  close(): void {
    this.closed = true;
    this.spare?.child.stdin?.end();
    this.spare = undefined;
  }

  private spawn(): Spare {
    this.onSpawned?.();
    const child = spawn(process.execPath, [this.script, `--instance=${this.instanceId}`], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    child.unref();
    // A spare that fails to start is noticed when it is taken.
    const ready = once(child, 'spawn').then(() => undefined);
    ready.catch(() => {});
    return { child, ready };
  }
}
