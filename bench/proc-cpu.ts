/** A process's CPU time from /proc, for CPU per request measured from outside the process. */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime + stime of a process, in seconds (fields 14 and 15 of /proc/<pid>/stat). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
