/**
 * The port between the session service and whatever runs game servers (child processes,
 * simulation, Docker). A runtime launches, watches and stops; it reports what happens as
 * events, and the session service alone decides the resulting state.
 */
import type { Readable } from 'node:stream';
import type { PortAllocation } from '../domain/session-record.js';

export interface LaunchSpec {
  sessionId: string;
  /** Executable and arguments (the image's command, then the request's args). */
  file: string;
  args: string[];
  /** The complete environment of the game server. */
  env: Record<string, string>;
  host: string;
  ports: PortAllocation[];
  /** Restart the game server when it crashes. */
  restart: boolean;
}

export type RuntimeEvent =
  /** Every declared port accepts connections. */
  | { type: 'running'; sessionId: string; at: number }
  /** The game server crashed and is being started again. */
  | { type: 'restarting'; sessionId: string; at: number }
  /** The game server is gone for good (after a stop, a crash without restart, or a clean exit). */
  | { type: 'exited'; sessionId: string; at: number; exitCode: number | null; signal: string | null }
  /** The runtime lost track of the session (its supervisor died, its node is gone). */
  | { type: 'lost'; sessionId: string; at: number };

export interface AdoptSpec {
  sessionId: string;
  host: string;
  ports: PortAllocation[];
  /** Whether the store had seen it running. */
  wasRunning: boolean;
}

export interface Runtime {
  readonly name: string;
  /** Launch; resolves once launched (not yet running). Failure to launch rejects. */
  start(spec: LaunchSpec): Promise<void>;
  /** SIGTERM, then SIGKILL after the runtime's grace period; ends with an `exited` event. */
  stop(sessionId: string): Promise<void>;
  /** After a service restart, watch a session the store says is live; its state arrives as events. */
  adopt(spec: AdoptSpec): Promise<void>;
  /** The game server's output; with `follow`, the stream stays open until the session ends or `signal` aborts. */
  logs(sessionId: string, options: { follow: boolean; signal: AbortSignal }): Readable | undefined;
  /** The directory whose files are the session's artifacts, if the runtime keeps any. */
  artifactRoot(sessionId: string): string | undefined;
  onEvent(listener: (event: RuntimeEvent) => void): void;
  /** Stop watching; sessions keep running, to be adopted by the next start. */
  close(): Promise<void>;
}
