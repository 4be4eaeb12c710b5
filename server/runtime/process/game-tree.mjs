// The game server's process tree as the supervisor sees it from outside the sandbox: the
// process inside its network namespace (where readiness is read), and the session's cgroups
// (emptied and removed at the end). Plain JavaScript: the supervisor uses it.
import { existsSync, lstatSync, readFileSync, readlinkSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ownNetns = readlinkSync('/proc/self/ns/net');

/**
 * A child of `pid` that lives in another network namespace (pasta's command), or undefined.
 * With `newerOnly`, a kernel that cannot list children reads only pids above `pid` (a child's,
 * unless pids wrapped around): a handful of files instead of every process's, while polling on
 * the start's critical path.
 */
export function childInOtherNetns(pid, { newerOnly = false } = {}) {
  for (const child of childrenOf(pid, newerOnly)) {
    try {
      if (readlinkSync(`/proc/${child}/ns/net`) !== ownNetns) return child;
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/** Where the kernel lists a process's children in one file (CONFIG_PROC_CHILDREN). */
const childrenFile = (pid) => `/proc/${pid}/task/${pid}/children`;
const childrenListed = existsSync(childrenFile(process.pid));

function childrenOf(pid, newerOnly) {
  if (childrenListed) {
    try {
      return readFileSync(childrenFile(pid), 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || (newerOnly && Number(entry) <= pid)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** The processes in a cgroup (v1: `cgroup.procs`); none when it cannot be read (gone). */
function cgroupProcesses(cgroupDir) {
  try {
    return readFileSync(join(cgroupDir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** How deep a process's pid namespace is nested (the ids in the NSpid line of its status; 0: gone) and its pid in the innermost one. */
function pidNamespaceDepth(pid) {
  try {
    const ids = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1].trim().split(/\s+/) ?? [];
    return { depth: ids.length, innerPid: ids.at(-1) };
  } catch {
    return { depth: 0, innerPid: undefined };
  }
}

const ownPidNamespaceDepth = pidNamespaceDepth(process.pid).depth;

/**
 * The sandboxed processes among those in the session's cgroup: those in a pid namespace below this
 * one (bwrap's), split into its init (pid 1 there: killing it kills the whole namespace) and the
 * rest. A game server can leave its process group and session (setsid) but neither its cgroup
 * (root's files) nor its pid namespace; pasta and bwrap's own outer process are in neither list.
 */
export function sandboxedProcesses(cgroupDir) {
  const inits = [];
  const others = [];
  for (const pid of cgroupProcesses(cgroupDir)) {
    const { depth, innerPid } = pidNamespaceDepth(pid);
    if (depth <= ownPidNamespaceDepth) continue;
    (innerPid === '1' ? inits : others).push(pid);
  }
  return { inits, others };
}

/** Signal every process in the session's cgroups (pasta and bwrap too); gone ones are skipped. */
export function signalCgroups(dirs, signal) {
  for (const dir of dirs) {
    for (const pid of cgroupProcesses(dir)) {
      try {
        process.kill(pid, signal);
      } catch {}
    }
  }
}

/** Kill whatever is left in the session's cgroups and remove them; false when one is still busy. */
export function removeCgroups(dirs) {
  let removed = true;
  for (const dir of dirs) {
    signalCgroups([dir], 'SIGKILL');
    try {
      rmdirSync(dir);
    } catch (error) {
      if (error.code !== 'ENOENT') removed = false;
    }
  }
  return removed;
}

const vanished = (error) => error?.code === 'ENOENT' || error?.code === 'ENOTDIR';

/**
 * What `dir` holds on its disk: `bytes` (of its files, symlinks not followed) and `entries` (files,
 * directories and everything else: each costs an inode, empty or not). Both are Infinity once
 * more than `maxEntries` entries are seen; `bytes` is Infinity when a part cannot be read.
 */
export function directoryUsage(dir, maxEntries) {
  let bytes = 0;
  let entries = 0;
  const pending = [dir];
  while (pending.length > 0) {
    let list;
    try {
      list = readdirSync(pending.pop(), { withFileTypes: true });
    } catch (error) {
      // Gone meanwhile is nothing; a directory that cannot be read (nested past PATH_MAX, which a
      // walk by whole paths never reaches) would hide what is under it: uncountable.
      if (vanished(error)) continue;
      return { bytes: Infinity, entries };
    }
    for (const entry of list) {
      if (++entries > maxEntries) return { bytes: Infinity, entries: Infinity };
      const path = join(entry.parentPath ?? entry.path, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) {
        try {
          bytes += lstatSync(path).blocks * 512;
        } catch (error) {
          if (!vanished(error)) return { bytes: Infinity, entries };
        }
      }
    }
  }
  return { bytes, entries };
}

/**
 * Disk bytes of files under `dir` that the processes in `cgroupDir` keep open although they were
 * unlinked (`/proc/<pid>/fd/<n>` -> `<dir>/... (deleted)`): invisible to a walk of `dir`, yet on
 * its disk until the last descriptor closes. Each file counted once, however many hold it.
 */
export function openDeletedBytes(cgroupDir, dir) {
  const pids = cgroupProcesses(cgroupDir);
  const prefix = `${dir}/`;
  const seen = new Set();
  let bytes = 0;
  for (const pid of pids) {
    let fds;
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      const path = `/proc/${pid}/fd/${fd}`;
      try {
        const target = readlinkSync(path);
        if (!target.startsWith(prefix) || !target.endsWith(' (deleted)')) continue;
        const stats = statSync(path);
        const key = `${stats.dev}:${stats.ino}`;
        if (seen.has(key)) continue;
        seen.add(key);
        bytes += stats.blocks * 512;
      } catch {
        // Closed or gone meanwhile.
      }
    }
  }
  return bytes;
}

/**
 * The open file descriptors of the game tree (the processes of `cgroupDir` in the sandbox's pid
 * namespace: sandboxedProcesses), counted until the count passes `max` (then it stops). pasta and
 * bwrap's outer process are not counted: pasta holds its pool of ~120 sockets and one per player
 * connection, so players could otherwise push a game server over its cap, and its own RLIMIT_NOFILE
 * (openFiles; it cannot raise it) bounds it. Each descriptor of each process is counted: one a fork
 * inherited shares its open file with its parent's, so this counts at least the host's file table
 * entries the game holds, never fewer. Linux 6.2 and later give the count as the size of
 * `/proc/<pid>/fd` (one stat, no listing); older kernels say 0 there, and are listed. `inSandbox`:
 * the verdicts of earlier counts, kept by the caller between them.
 */
export function openDescriptors(cgroupDir, max, inSandbox = new Map()) {
  const pids = cgroupProcesses(cgroupDir);
  const current = new Set(pids);
  // Which of them are in the sandbox, read once per pid (a process never changes pid namespace; a
  // new one in the cgroup comes from a fork of the game tree), forgetting those gone.
  for (const pid of inSandbox.keys()) if (!current.has(pid)) inSandbox.delete(pid);
  let count = 0;
  for (const pid of pids) {
    if (!inSandbox.has(pid)) inSandbox.set(pid, pidNamespaceDepth(pid).depth > ownPidNamespaceDepth);
    if (!inSandbox.get(pid)) continue;
    const fdDir = `/proc/${pid}/fd`;
    try {
      const size = statSync(fdDir).size;
      count += size > 0 ? size : readdirSync(fdDir).length;
    } catch {
      // Gone meanwhile.
    }
    if (count > max) break;
  }
  return count;
}

/** Pages ever charged to a cgroup v1 memory controller (`pgpgin`: it grows as the tree writes files), or undefined. */
export function chargedPages(memoryCgroup) {
  try {
    const match = /^pgpgin (\d+)$/m.exec(readFileSync(join(memoryCgroup, 'memory.stat'), 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
