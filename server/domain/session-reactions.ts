/**
 * What a live session does when its runtime reports something: the runtime-event -> transition
 * -> end-reason decisions, written once as data beside the transition table in
 * session-states.ts (test/unit/session-reactions.test.ts checks every path against it). A
 * status missing from an event's row ignores that event.
 */
import type { RuntimeEvent } from './ports/runtime.js';
import type { EndReason, SessionStatus } from './ports/sessions.js';

/**
 * How the end reason is decided: a fixed reason; `pending`: the stop under way (else
 * `stopped`); `exit-code`: `exited` for exit code 0, else `crashed`; `pending-or-exit-code`: the
 * stop under way if there is one, else by exit code.
 */
export type EndReasonRule = EndReason | 'pending' | 'exit-code' | 'pending-or-exit-code';

export interface Reaction {
  /** The states the session passes through, in order; the last one takes the event's data. */
  readonly path: readonly SessionStatus[];
  /** For a path that ends the session. */
  readonly endReason?: EndReasonRule;
  /** Back from an unreachable node with a stop pending: finish the stop. */
  readonly finishPendingStop?: true;
}

const toUnreachable: Reaction = { path: ['server_unreachable'] };
const lost: Reaction = { path: ['server_unreachable', 'dead'], endReason: 'node_lost' };
const crashedOrExited: Reaction = { path: ['dead'], endReason: 'exit-code' };

export const reactions: Readonly<Record<RuntimeEvent['type'], Partial<Record<SessionStatus, Reaction>>>> = {
  running: {
    created: { path: ['running'] },
    restarting: { path: ['running'] },
    server_unreachable: { path: ['running'], finishPendingStop: true },
  },
  unreachable: {
    created: toUnreachable,
    running: toUnreachable,
    restarting: toUnreachable,
    draining: toUnreachable,
    shuttingdown: toUnreachable,
  },
  restarting: {
    running: { path: ['restarting'] },
  },
  exited: {
    created: { path: ['dead'], endReason: 'start_failed' },
    running: crashedOrExited,
    restarting: crashedOrExited,
    // The stop completed.
    draining: { path: ['shuttingdown', 'exited'], endReason: 'pending' },
    shuttingdown: { path: ['exited'], endReason: 'pending' },
    // Ended while its node was unreachable: a stop that was under way counts as that end.
    server_unreachable: { path: ['dead'], endReason: 'pending-or-exit-code' },
  },
  lost: {
    created: lost,
    running: lost,
    restarting: lost,
    draining: lost,
    shuttingdown: lost,
    server_unreachable: { path: ['dead'], endReason: 'node_lost' },
  },
};

export function endReasonOf(rule: EndReasonRule, pending: EndReason | null, exitCode: number | null | undefined): EndReason {
  switch (rule) {
    case 'pending':
      return pending ?? 'stopped';
    case 'exit-code':
      return exitCode === 0 ? 'exited' : 'crashed';
    case 'pending-or-exit-code':
      return pending ?? (exitCode === 0 ? 'exited' : 'crashed');
    default:
      return rule;
  }
}
