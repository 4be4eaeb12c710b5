/**
 * The simulated runtime: the whole lifecycle on timers, no process. For the sandbox and for
 * benchmarks. Sessions become running after `readyMs` and exit (code 0) `stopMs` after a stop.
 */
import { Readable } from 'node:stream';
import type { AdoptSpec, LaunchSpec, Runtime, RuntimeEvent } from './runtime.js';

export interface SimulatedRuntimeOptions {
  readyMs: number;
  stopMs: number;
  now: () => number;
}

export class SimulatedRuntime implements Runtime {
  readonly name = 'simulated';
  private readonly listeners: ((event: RuntimeEvent) => void)[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly options: SimulatedRuntimeOptions) {}

  onEvent(listener: (event: RuntimeEvent) => void): void {
    this.listeners.push(listener);
  }

  async start(spec: LaunchSpec): Promise<void> {
    this.after(spec.sessionId, this.options.readyMs, () => this.emit({ type: 'running', sessionId: spec.sessionId, at: this.options.now() }));
  }

  async stop(sessionId: string): Promise<void> {
    this.after(sessionId, this.options.stopMs, () => {
      this.timers.delete(sessionId);
      this.emit({ type: 'exited', sessionId, at: this.options.now(), exitCode: 0, signal: null });
    });
  }

  async adopt(spec: AdoptSpec): Promise<void> {
    if (!spec.wasRunning) await this.start({ sessionId: spec.sessionId } as LaunchSpec);
  }

  logs(sessionId: string) {
    return Readable.from([`simulated game server for session ${sessionId}\n`]);
  }

  artifactRoot(): string | undefined {
    return undefined;
  }

  async close(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private after(sessionId: string, ms: number, fn: () => void) {
    clearTimeout(this.timers.get(sessionId));
    const timer = setTimeout(fn, ms);
    timer.unref();
    this.timers.set(sessionId, timer);
  }

  private emit(event: RuntimeEvent) {
    for (const listener of this.listeners) listener(event);
  }
}
