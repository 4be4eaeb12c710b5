/** Linux /proc readings: process identity (PID reuse guard) and bound ports (readiness). */
import { readFileSync } from 'node:fs';

/**
 * The process's start time in clock ticks since boot, or undefined when it does not exist or
 * is dead: a zombie (state Z, exited and never reaped by its parent) or dying (X) is no longer
 * running anything.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields 3 (state) and 22; the command name (field 2) is parenthesised and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return fields[19];
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is the same process that started at `startTime`. */
export function isSameProcess(pid: number, startTime: string): boolean {
  return processStartTime(pid) === startTime;
}

/** Whether a process of this pid exists (signal 0 checks without sending). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
