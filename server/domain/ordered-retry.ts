/**
 * Runs work items in order per key, retrying a failing item until it succeeds before any later
 * item of the same key runs (a runtime event that could not be recorded, say on a full disk, is
 * never overtaken by the next event of its session). Failures go to the reporter under one
 * component name, which recovers once no key has work waiting.
 */
import type { FailureReporter } from './ports/failure-reporter.js';

export interface OrderedRetryOptions<T> {
  key: (item: T) => string;
  run: (item: T) => Promise<void>;
  reporter: FailureReporter;
  component: string;
  retryMs: number;
}

export class OrderedRetry<T> {
  private readonly queues = new Map<string, T[]>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: OrderedRetryOptions<T>) {}

  push(item: T): void {
    const key = this.options.key(item);
    const queue = this.queues.get(key);
    if (queue) {
      // Earlier work of this key is waiting (or running): this goes after it.
      queue.push(item);
      return;
    }
    this.queues.set(key, [item]);
    void this.drain(key);
  }

  /** Keys with work waiting for a retry. */
  get waiting(): number {
    return this.queues.size;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async drain(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    while (queue.length > 0) {
      try {
        await this.options.run(queue[0]!);
      } catch (error) {
        this.options.reporter.failed(this.options.component, error);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          void this.drain(key);
        }, this.options.retryMs);
        timer.unref();
        this.timers.add(timer);
        return;
      }
      queue.shift();
    }
    this.queues.delete(key);
    if (this.queues.size === 0) this.options.reporter.recovered(this.options.component);
  }
}
