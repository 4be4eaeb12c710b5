/**
 * The scheduling priority of a whole session (a process started detached, and what it starts
 * without a session of its own). With autogroup scheduling (CONFIG_SCHED_AUTOGROUP, on here and
 * in Debian's kernels) sessions compete with each other at their session's nice, whatever their
 * threads' own: a busy loop at nice 19 in a session of its own took as much of a core as one at
 * nice 0 in another (88 against 87 ticks; 10 against 91 once its session was at 19). So what must
 * yield (a spare supervisor loading, a warm game server waiting for its session) yields through
 * its session's group (issue 19: they slowed the starts and warm handoffs they were to yield to).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hasCapability } from './capabilities.js';

const CAP_SYS_ADMIN = 21n;

/**
 * Changed only where the kernel has autogroups and this process may change them as often as it
 * needs (CAP_SYS_ADMIN: without it, one change per 100 ms on the whole host). Elsewhere (each
 * session in a cgroup of its own, or no autogroups) the threads' nice is what counts.
 */
const mayChangeAutogroups = existsSync('/proc/self/autogroup') && hasCapability(CAP_SYS_ADMIN);

/** The autogroup a process is in (`/autogroup-123 nice 0`: its name). */
const autogroupOf = (pid: number) => readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ', 1)[0];

/**
 * Sets the nice of the session group `pid` is in, unless that is this process's own group (never
 * the service's). True when set, not needed or the process is gone; false when refused.
 */
export function setSessionGroupNice(pid: number | undefined, nice: number): boolean {
  if (!mayChangeAutogroups || pid === undefined) return true;
  try {
    if (autogroupOf(pid) === autogroupOf(process.pid)) return true;
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ESRCH';
  }
}
