/**
 * The session state machine, written once. The spec's SessionStatus description carries the
 * same table; test/unit/session-states.test.ts holds the two together.
 */
import type { EndReason, SessionRecord, SessionStatus } from './ports/sessions.js';

export type { EndReason, SessionStatus };

export const transitions: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  /** Placed on a node; the game server is starting. */
  created: ['running', 'dead', 'shuttingdown', 'server_unreachable'],
  /** Its declared ports accept connections. */
  running: ['restarting', 'draining', 'dead', 'server_unreachable'],
  /** Crashed and being started again (only with `restart`). */
  restarting: ['running', 'dead', 'shuttingdown', 'server_unreachable'],
  /** A stop, ttl or quota end was requested. */
  draining: ['shuttingdown', 'server_unreachable'],
  /** SIGTERM sent; the grace period runs, then SIGKILL. */
  shuttingdown: ['exited', 'server_unreachable'],
  /** The node lost track of it. */
  server_unreachable: ['running', 'dead'],
  /** Final: ended after a stop. */
  exited: [],
  /** Final: failed to start, crashed, or quit on its own. */
  dead: [],
};

export function canTransition(from: SessionStatus, to: SessionStatus): boolean {
  return transitions[from].includes(to);
}

export function isFinal(status: SessionStatus): boolean {
  return transitions[status].length === 0;
}

export const liveStatuses = (Object.keys(transitions) as SessionStatus[]).filter((s) => !isFinal(s));

/** What a session is when placed: created, with nothing run, ended or joined yet. */
export function justPlaced(): Pick<SessionRecord, 'status' | 'pendingEndReason' | 'ended' | 'exitCode' | 'endReason' | 'runningSince' | 'players'> {
  return { status: 'created', pendingEndReason: null, ended: null, exitCode: null, endReason: null, runningSince: null, players: [] };
}
