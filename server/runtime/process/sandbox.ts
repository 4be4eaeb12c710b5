/**
 * The process runtime's sandbox: the command line that puts one game server in a box of its own.
 *
 *   prlimit (open files, file size) -> setpriv (the session's own uid/gid, no groups)
 *   -> pasta (a new user and network namespace; only the declared ports forwarded from the
 *      allocated host ports, nothing forwarded back to the host) -> bwrap (a read-only view of the
 *      filesystem without /run, /tmp, /home, /root, the data directory and other sessions; only
 *      the work directory writable; own pid, ipc and uts namespaces; no capabilities; the seccomp
 *      filter of seccomp.ts, read from SECCOMP_FD) -> the game.
 *
 * pasta runs the command as root of a user namespace mapped to the session uid, and bwrap then
 * maps the game back to that uid, so inside and outside it is one unprivileged user.
 * The supervisor puts the whole tree in the session's cgroups (cgroups.ts) before this runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, sep } from 'node:path';
import type { PortAllocation } from '../../domain/ports/sessions.js';
import { type SeccompHandoff, withSeccomp } from './launcher.mjs';
import { SECCOMP_FD, writeSeccompFile } from './seccomp.js';
import { SDK_DIR_IN_SESSION } from '../sdk-endpoint.js';

export interface SandboxTools {
  bwrap: string;
  pasta: string;
  setpriv: string;
  prlimit: string;
  /** Applies the egress firewall (egress-firewall.ts). */
  nft: string;
  /** Closes inherited descriptors inside the sandbox (CLOSE_INHERITED); Essential on Debian, not everywhere. */
  perl: string;
  /** The seccomp filter's program (seccomp.ts), written at the check: bwrap reads it on SECCOMP_FD. */
  seccompFile: string;
}

/** Where the tools are looked for: system directories only, never the caller's PATH. */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const PACKAGES: Record<Exclude<keyof SandboxTools, 'seccompFile'>, string> = { bwrap: 'bubblewrap', pasta: 'passt', setpriv: 'util-linux', prlimit: 'util-linux', nft: 'nftables', perl: 'perl' };
/** Directories replaced by empty ones: per-user and runtime state (sockets), never the game's. */
const HIDDEN = ['/tmp', '/var/tmp', '/root', '/home', '/run', '/var/run', '/dev/shm'];
/** The host's cgroup hierarchies, hidden under an empty tmpfs (not in HIDDEN: no executable lives there). */
const CGROUPS = '/sys/fs/cgroup';

export type SandboxCheck = { ok: true; tools: SandboxTools } | { ok: false; problem: string };

let checked: SandboxCheck | undefined;

/**
 * Whether game servers can be sandboxed here: the tools exist, the service runs as root (to give
 * each session a uid), the cgroup controllers are mounted, and a tiny sandbox really starts.
 * Checked once per process.
 */
export function checkSandbox(cgroupsAvailable: () => string | undefined): SandboxCheck {
  checked ??= probe(cgroupsAvailable);
  return checked;
}

/** The tools' paths (looked for in the system directories only), or the packages of those missing. */
export function findTools(exists: (path: string) => boolean = existsSync): Partial<SandboxTools> | { missing: string[] } {
  const found: Partial<SandboxTools> = {};
  const missing = new Set<string>();
  for (const name of Object.keys(PACKAGES) as (keyof typeof PACKAGES)[]) {
    const path = SYSTEM_DIRS.map((dir) => join(dir, name)).find((candidate) => exists(candidate));
    if (path) found[name] = path;
    else missing.add(PACKAGES[name]);
  }
  return missing.size > 0 ? { missing: [...missing] } : found;
}

function probe(cgroupsAvailable: () => string | undefined): SandboxCheck {
  const found = findTools();
  if ('missing' in found) return { ok: false, problem: `${found.missing.join(' and ')} not installed` };
  if (process.getuid?.() !== 0) return { ok: false, problem: 'the service does not run as root, so it cannot give each game server a user of its own' };
  const cgroups = cgroupsAvailable();
  if (cgroups) return { ok: false, problem: cgroups };
  const seccomp = writeSeccompFile();
  if (!seccomp.ok) return { ok: false, problem: seccomp.problem };
  const tools = { ...found, seccompFile: seccomp.file } as SandboxTools;
  const argv = [
    // Any existing directory but `/`: bound over the whole view, it would cover the sandbox's own
    // /dev with the host's (mounted nodev), where perl (CLOSE_INHERITED) cannot open /dev/null.
    ...sandboxArgv(tools, { uid: 65534, workDir: '/tmp', hostAddress: '127.0.0.1', ports: [], hide: [], readOnly: [], limits: { openFiles: 64, fileBytes: 1024 } }),
    '/bin/true',
  ];
  const result = withSeccomp(seccompHandoff(tools), ['ignore', 'pipe', 'pipe'], (stdio) => spawnSync(argv[0]!, argv.slice(1), { env: {}, stdio, timeout: 10_000, encoding: 'utf8' }));
  if (result.status !== 0) return { ok: false, problem: `a test sandbox did not start (${(result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n').pop()})` };
  return { ok: true, tools };
}

export function noSandboxMessage(problem: string): string {
  return (
    `The process runtime will not run game servers unsandboxed: ${problem}. ` +
    'Install bubblewrap, passt, nftables and perl and run the service as root, or set runtime.isolation to "none" in the fleet file (trusted code on a developer machine only).'
  );
}

export interface SandboxSession {
  uid: number;
  workDir: string;
  /** The node's address: forwarded ports are bound on it when it is an IP address. */
  hostAddress: string;
  ports: readonly PortAllocation[];
  /** More directories to hide (the data directory). */
  hide: readonly string[];
  /** Directories to show read-only although under a hidden one (the project, Node's prefix). */
  readOnly: readonly string[];
  limits: { openFiles: number; fileBytes: number };
  /** The directory of the session's SDK socket, shown read-only at SDK_DIR_IN_SANDBOX. */
  sdkDir?: string;
}

/** Where a sandboxed game server finds its SDK socket's directory (under the emptied /run). */
export const SDK_DIR_IN_SANDBOX = SDK_DIR_IN_SESSION;

/** Where whatever execs the sandbox's command line opens the seccomp filter for bwrap (launcher.mjs). */
export const seccompHandoff = (tools: SandboxTools): SeccompHandoff => ({ fd: SECCOMP_FD, file: tools.seccompFile });

/**
 * The command line up to and including bwrap's `--`; the game's executable and arguments follow.
 * It runs with the seccomp filter open on SECCOMP_FD (seccompHandoff).
 */
export function sandboxArgv(tools: SandboxTools, session: SandboxSession): string[] {
  const id = String(session.uid);
  const forward = (type: 'tcp' | 'udp') => {
    const ports = session.ports.filter((p) => p.type === type).map((p) => p.host);
    if (ports.length === 0) return 'none';
    // The game binds the allocated port inside its namespace, so the port number is the same on both sides.
    const address = isIP(session.hostAddress) ? `${session.hostAddress}/` : '';
    return `${address}${ports.join(',')}`;
  };
  return [
    tools.prlimit,
    `--nofile=${session.limits.openFiles}`,
    `--fsize=${session.limits.fileBytes}`,
    // Core dumps would be written outside the work-dir accounting.
    '--core=0',
    '--',
    tools.setpriv,
    `--reuid=${id}`,
    `--regid=${id}`,
    '--clear-groups',
    '--inh-caps=-all',
    tools.pasta,
    '--quiet',
    '--foreground',
    '--config-net',
    '--tcp-ports', forward('tcp'),
    '--udp-ports', forward('udp'),
    // Nothing from the namespace to the host: no host loopback services, no gateway mapping.
    '--tcp-ns', 'none',
    '--udp-ns', 'none',
    '--no-map-gw',
    '--',
    ...bubblewrapArgv(tools, session),
  ];
}

function bubblewrapArgv({ bwrap, perl }: SandboxTools, session: SandboxSession): string[] {
  const args = [bwrap, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // A symlink (/var/run -> /run) follows what it points to.
  for (const dir of HIDDEN) if (isRealDirectory(dir)) args.push('--tmpfs', dir);
  // Every session's cgroups are world-readable on the host (their keys, memory use, processes):
  // none of them is the game server's business, its own included (outside check 9).
  if (isRealDirectory(CGROUPS)) args.push('--tmpfs', CGROUPS);
  for (const dir of session.readOnly) args.push('--ro-bind', dir, dir);
  for (const dir of session.hide) args.push('--tmpfs', dir);
  // Connecting to a socket needs no write access to its mount.
  if (session.sdkDir) args.push('--ro-bind', session.sdkDir, SDK_DIR_IN_SANDBOX);
  args.push(
    '--bind', session.workDir, session.workDir,
    '--chdir', session.workDir,
    '--unshare-user', '--uid', String(session.uid), '--gid', String(session.uid),
    // No user namespace of its own: root there would reach nf_tables, mounts and the other
    // namespaced kernel code most local privilege escalations go through (Docker's default
    // seccomp profile refuses it too). Asserted, so a bubblewrap that cannot do it refuses to run.
    '--disable-userns', '--assert-userns-disabled',
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    '--cap-drop', 'ALL',
    // The system calls a game server never needs (seccomp.ts); the program is read from this descriptor.
    '--seccomp', String(SECCOMP_FD),
    // No --new-session: the game server has no terminal, and it must stay in the process group a stop signals.
    '--die-with-parent',
    '--',
    perl,
    ...CLOSE_INHERITED,
  );
  return args;
}

/**
 * Exec'd inside the sandbox before the game: closes every descriptor past stderr, then execs the
 * game in its place (same pid, same environment; 127 if that fails, as a shell). Nothing on the
 * way closes them: pasta's sockets of the forwarded ports (listening in the host's network
 * namespace) and whatever the service inherited without close-on-exec (a supervisor's pipe)
 * reached every game server (outside check: a game held a UDP socket of the host's namespace).
 * Perl, not a shell: dash cannot name a descriptor past 9 (the probe's tools include it: a host without it is told to install it, not that a test sandbox failed). `<&=` adopts a descriptor without
 * duplicating it, so close() closes that one; perl-base is Essential on Debian.
 */
const CLOSE_INHERITED = [
  '-e',
  'opendir(my $d, "/proc/self/fd") or exit 126; my @fds = grep { /^\\d+$/ && $_ > 2 } readdir $d; closedir $d; ' +
    'for (@fds) { open(my $f, "+<&=", $_) and close $f } exec { $ARGV[0] } @ARGV; exit 127',
  '--',
];

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The installation prefix of an executable when the sandbox would hide it (Node from nvm, volta,
 * or the npm registry's `node` package under /tmp or a home directory): `<prefix>/bin/node`.
 */
export function hiddenPrefixOf(executable: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(executable);
  } catch {
    return undefined;
  }
  if (!HIDDEN.some((dir) => real.startsWith(dir + sep))) return undefined;
  const prefix = dirname(dirname(real));
  return HIDDEN.includes(prefix) ? dirname(real) : prefix;
}
