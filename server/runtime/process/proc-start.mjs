// A process's start time, read from /proc: with its pid, the identity that survives pid reuse.
// Plain JavaScript: the supervisor and the spare spawner read it too.
import { readFileSync } from 'node:fs';

/**
 * The process's start time in clock ticks since boot, or undefined when it does not exist or
 * is dead: a zombie (state Z, exited and never reaped by its parent) or dying (X) is no longer
 * running anything.
 */
export function processStartTime(pid) {
  return processStartTimeOrUnknown(pid) ?? undefined;
}

/**
 * As processStartTime, but null when /proc could not be read for another reason than the process
 * being gone (this host out of file descriptors: EMFILE): not known, which is not gone.
 */
export function processStartTimeOrUnknown(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    return error?.code === 'ENOENT' || error?.code === 'ESRCH' ? undefined : null;
  }
  // Fields 3 (state) and 22; the command name (field 2) is parenthesised and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return fields[19];
}
