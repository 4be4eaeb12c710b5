import type { WarmAllocation } from '../../domain/ports/runtime.js';

/** `onAllocation` may return a function: called once the `ok` is written. */
export function serveHandoff(options: { socketPath: string; onAllocation: (allocation: WarmAllocation) => unknown }): Promise<{ close(): void }>;
/** Hand the supervisor listening on `socketPath` its session; resolves once its SDK has it. */
export function handOver(socketPath: string, allocation: WarmAllocation): Promise<void>;
/** A connection made ahead to a ready warm game server's supervisor: its handoff is then one write. */
export function connectAhead(socketPath: string): { handOver(allocation: WarmAllocation): Promise<void>; close(): void };
/** One throwaway handoff in a private directory, so a spare's first real one runs compiled code; resolves whether or not it worked. */
export function warmUpHandoff(): Promise<void>;
