/**
 * The scheduling group (autogroup) a process is in, from `/proc/PID/autogroup`:
 * `/autogroup-123 nice 19`. A process that never left the root group (started under init without
 * a session of its own, as CI's runner is) reads an empty file: the root group has no nice of its
 * own to change, so it reads here as `root`.
 */
import { readFileSync } from 'node:fs';

export type Autogroup = { group: string; nice: number } | 'root';

export function autogroupOf(pid: number): Autogroup {
  const text = readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();
  if (text === '') return 'root';
  const [group, , nice] = text.split(' ');
  return { group: group!, nice: Number(nice) };
}

/** A group's nice, or `root` for the root group (which no nice write can reach). */
export const groupNice = (pid: number): number | 'root' => {
  const group = autogroupOf(pid);
  return group === 'root' ? group : group.nice;
};
