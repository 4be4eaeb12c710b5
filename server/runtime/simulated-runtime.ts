/**
 * The simulated runtime: the whole lifecycle on timers, no process. For the sandbox and for
 * benchmarks. Sessions become running after `readyMs` and exit (code 0) `stopMs` after a stop.
 * Its nodes stand for engines reached over the network: with several instances they move
 * between them by lease, and the instance that takes a node over adopts its sessions.
 */
import { Readable } from 'node:stream';
import type { AdoptSpec, LaunchSpec, Runtime, RuntimeEvent, WarmAllocation } from '../domain/ports/runtime.js';

export interface SimulatedRuntimeOptions {
  readyMs: number;
  stopMs: number;
  now: () => number;
}

export class SimulatedRuntime implements Runtime {
  readonly name = 'simulated';
  readonly nodesMove = true;
  /** The sessions watched here (launched or adopted, not yet exited nor released), with their node. */
  private readonly watched = new Map<string, string>();
  /** Of those, the ones stopping: a second stop does not push their exit back. */
  private readonly stopping = new Set<string>();
  private readonly listeners: ((event: RuntimeEvent) => void)[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Log follows to end when their session exits. */
  private readonly follows = new Map<string, Set<() => void>>();

  constructor(private readonly options: SimulatedRuntimeOptions) {}

  onEvent(listener: (event: RuntimeEvent) => void): void {
    this.listeners.push(listener);
  }

  async start(spec: LaunchSpec): Promise<void> {
    this.watched.set(spec.sessionId, spec.nodeId);
    this.after(spec.sessionId, this.options.readyMs, () => this.emit({ type: 'running', sessionId: spec.sessionId, at: this.options.now() }));
  }

  async stop(sessionId: string): Promise<void> {
    if (this.stopping.has(sessionId)) return;
    this.stopping.add(sessionId);
    this.after(sessionId, this.options.stopMs, () => {
      this.timers.delete(sessionId);
      this.watched.delete(sessionId);
      this.stopping.delete(sessionId);
      for (const end of this.follows.get(sessionId) ?? []) end();
      this.emit({ type: 'exited', sessionId, at: this.options.now(), exitCode: 0, signal: null });
    });
  }

  /** A warm session has nothing to learn here: no game server reads an SDK. */
  async allocate(_sessionId: string, _allocation: WarmAllocation): Promise<void> {}

  async adopt(spec: AdoptSpec): Promise<void> {
    this.watched.set(spec.sessionId, spec.nodeId);
    if (!spec.wasRunning) await this.start({ sessionId: spec.sessionId, nodeId: spec.nodeId } as LaunchSpec);
  }

  supervises(sessionId: string): boolean {
    return this.watched.has(sessionId);
  }

  release(sessionId: string): void {
    clearTimeout(this.timers.get(sessionId));
    this.timers.delete(sessionId);
    this.watched.delete(sessionId);
    this.stopping.delete(sessionId);
  }

  releaseNode(nodeId: string): void {
    for (const [sessionId, node] of this.watched) if (node === nodeId) this.release(sessionId);
  }

  logs(sessionId: string, options: { follow: boolean; signal: AbortSignal }) {
    // Runtimes know sessions by key, never shown: the line names no session.
    const line = 'simulated game server: no output\n';
    if (!options.follow) return Readable.from([line]);
    // Followed: the line, then open (as a real follow is) until the session exits or the reader goes.
    const stream = new Readable({ read() {} });
    stream.push(line);
    const ends = this.follows.get(sessionId) ?? new Set<() => void>();
    this.follows.set(sessionId, ends);
    const end = () => {
      ends.delete(end);
      if (ends.size === 0) this.follows.delete(sessionId);
      stream.push(null);
    };
    ends.add(end);
    options.signal.addEventListener('abort', end, { once: true });
    return stream;
  }

  artifactRoot(): string | undefined {
    return undefined;
  }

  async close(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.watched.clear();
    this.stopping.clear();
    for (const ends of [...this.follows.values()]) for (const end of [...ends]) end();
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
