/**
 * Session directories' usage (game-tree.mjs directoryUsage: bytes and entries), walked on a worker
 * thread so the service's event loop never waits for a large one. One worker, started at the
 * first walk and never holding the process open; walks queue on it one at a time (the disk
 * gains nothing from more).
 */
import { Worker } from 'node:worker_threads';

export interface DirectoryUsage {
  bytes: number;
  entries: number;
}

const WORKER = new URL('./directory-usage-worker.mjs', import.meta.url);

type Pending = Map<number, { resolve: (usage: DirectoryUsage) => void; reject: (error: Error) => void }>;

export class DirectoryUsageWalker {
  private current: { worker: Worker; pending: Pending } | undefined;
  private nextId = 0;

  /** `dir`'s usage, as directoryUsage(dir, maxEntries) would answer it. */
  usage(dir: string, maxEntries: number): Promise<DirectoryUsage> {
    const id = this.nextId++;
    const { worker, pending } = this.started();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, dir, maxEntries });
    });
  }

  async close(): Promise<void> {
    const worker = this.current?.worker;
    this.current = undefined;
    await worker?.terminate();
  }

  private started(): { worker: Worker; pending: Pending } {
    if (this.current) return this.current;
    // Plain JavaScript: none of the service's loaders (tsx), which would cost its start ~100 ms of CPU.
    const worker = new Worker(WORKER, { execArgv: [] });
    const pending: Pending = new Map();
    worker.unref();
    worker.on('message', ({ id, usage }: { id: number; usage: DirectoryUsage }) => {
      pending.get(id)?.resolve(usage);
      pending.delete(id);
    });
    // A worker that died fails what it had; the next walk starts another.
    const fail = (error: Error) => {
      if (this.current?.worker === worker) this.current = undefined;
      for (const { reject } of pending.values()) reject(error);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the directory walker exited with ${code}`)));
    this.current = { worker, pending };
    return this.current;
  }
}
