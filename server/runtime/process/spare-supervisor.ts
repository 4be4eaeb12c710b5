/**
 * A supervisor spawned ahead of the next start, so a start does not wait for a fork or for Node
 * to load: taken by a start, and replaced once that start's game server runs. Loading Node takes
 * tens of milliseconds of CPU, which a game server starting beside it on a busy host would wait
 * for; so it is loaded before a start, never during one (a start finding no spare, in a burst,
 * spawns its own).
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

  /** A new spare once `started` settles (the game server it was taken for runs, or failed); none once closed. */
  replenishAfter(started: Promise<unknown>): void {
    const replenish = () => {
      if (!this.closed) this.spare ??= this.spawn();
    };
    started.then(replenish, replenish);
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
