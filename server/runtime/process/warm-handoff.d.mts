import type { WarmAllocation } from '../../domain/ports/runtime.js';

/** `onAllocation` may return a function: called once the `ok` is written. */
export function serveHandoff(options: { socketPath: string; onAllocation: (allocation: WarmAllocation) => unknown }): Promise<{ close(): void }>;
/** Hand the supervisor listening on `socketPath` its session; resolves once its SDK has it. */
export function handOver(socketPath: string, allocation: WarmAllocation): Promise<void>;
/** A handoff sent ahead of its claim's commit: `go()` once it has committed (resolves on the supervisor's `ok`), `abort()` if it rolled back. */
export interface PreparedHandoff {
  go(): Promise<void>;
  abort(): void;
}
/** A connection made ahead to a ready warm game server's supervisor: its handoff is then writes on an open socket. */
export function connectAhead(socketPath: string): { prepare(allocation: WarmAllocation): PreparedHandoff; handOver(allocation: WarmAllocation): Promise<void>; close(): void };
/** One throwaway handoff in a private directory, so a spare's first real one runs compiled code; resolves to whether it worked. */
export function warmUpHandoff(): Promise<boolean>;
