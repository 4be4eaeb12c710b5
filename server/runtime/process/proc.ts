/** Linux /proc readings: process identity (PID reuse guard) and bound ports (readiness). */
import { readFileSync } from 'node:fs';

/** The process's start time in clock ticks since boot, or undefined when it does not exist. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) is parenthesised and may contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is the same process that started at `startTime`. */
export function isSameProcess(pid: number, startTime: string): boolean {
  return processStartTime(pid) === startTime;
}
