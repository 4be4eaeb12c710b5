// How long a crashed game server waits before its restart (sessions started with `restart`).
// Doubling from 250 ms to 5 minutes, as Kubernetes' CrashLoopBackOff does: a game server that
// crashes soon after every start (a bad build, a port it cannot bind) is otherwise restarted every
// few seconds for good, and each restart is two state changes, each an event that copies the
// session and goes to every stream and webhook (outside check 9: a 5 s cap let 8 such sessions
// write 2.8 MB of events a second). One that ran steadily before it crashed starts over at 250 ms.
//
// Plain JavaScript: the supervisor loads it (no TypeScript loader on a start's path).

const FIRST_MS = 250;
export const MAX_RESTART_DELAY_MS = 5 * 60_000;
/** A game server that ran this long before it crashed was not crash-looping: its next crash waits FIRST_MS again. */
export const STEADY_RUN_MS = 60_000;

/** Tracks one session's crashes; delayAfterCrash(ranMs) is the wait before the next launch. */
export function restartBackoff() {
  let streak = 0;
  return {
    delayAfterCrash(ranMs) {
      if (ranMs >= STEADY_RUN_MS) streak = 0;
      const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_MS * 2 ** Math.min(streak, 20));
      streak++;
      return delay;
    },
  };
}
