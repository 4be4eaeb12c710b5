/** Linux /proc readings: process identity (PID reuse guard) and bound ports (readiness). */
import { processStartTime, processStartTimeOrUnknown } from './proc-start.mjs';

export { processStartTime } from './proc-start.mjs';

/** True when `pid` is alive and is the same process that started at `startTime`. */
export function isSameProcess(pid: number, startTime: string): boolean {
  return processStartTime(pid) === startTime;
}

/** As isSameProcess, but undefined when /proc could not be read (this host out of file descriptors): not known. */
export function isSameProcessIfKnown(pid: number, startTime: string): boolean | undefined {
  const start = processStartTimeOrUnknown(pid);
  return start === null ? undefined : start === startTime;
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
