/**
 * The seccomp filter every sandboxed game server runs under (bubblewrap's `--seccomp FD`): a
 * classic BPF program that denies the system calls a game server never needs and an attacker
 * uses to reach kernel code (module and BPF loading, keyrings, io_uring, mounts, namespaces,
 * other processes' memory). Denied calls fail with EPERM, not a kill: programs probe for features
 * (libuv tries io_uring, glibc clone3) and must keep running when refused.
 *
 * The program also checks the architecture: a call through another ABI (i386's `int 0x80` from a
 * 64-bit process, arm32 on arm64) has other numbers the list does not cover, so it kills the
 * process; x32 calls (x86_64 numbers with bit 30 set) are refused.
 *
 * Built here (no library compiles seccomp for Node without a native module): the program is a few
 * dozen instructions, each `struct sock_filter` (u16 code, u8 jt, u8 jf, u32 k, host byte order).
 */
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { chmodSync, renameSync, writeFileSync } from 'node:fs';

/** Denied with EPERM, by what an attacker would use them for (README: "The seccomp filter"). */
export const DENIED_SYSCALLS = {
  'loading code into the kernel': ['kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module', 'uselib', 'bpf'],
  'kernel attack surface a game never touches': ['perf_event_open', 'userfaultfd', 'io_uring_setup', 'io_uring_enter', 'io_uring_register', 'keyctl', 'add_key', 'request_key', 'fanotify_init', 'lookup_dcookie', 'nfsservctl'],
  'other processes (its own pid namespace holds only its own, but belt and braces)': ['ptrace', 'process_vm_readv', 'process_vm_writev', 'kcmp', 'pidfd_getfd', 'process_madvise'],
  'mounts and the filesystem root': ['mount', 'umount2', 'pivot_root', 'move_mount', 'open_tree', 'open_tree_attr', 'fsopen', 'fsmount', 'fspick', 'fsconfig', 'mount_setattr', 'chroot'],
  'namespaces (bubblewrap already refuses user namespaces)': ['setns', 'unshare'],
  'files by handle, past the view bubblewrap gives (the "shocker" escape)': ['open_by_handle_at', 'name_to_handle_at'],
  'the machine itself': ['swapon', 'swapoff', 'reboot', 'acct', 'quotactl', 'quotactl_fd', 'syslog', 'vhangup', 'iopl', 'ioperm'],
  'the clock': ['clock_settime', 'settimeofday', 'adjtimex', 'clock_adjtime'],
} as const;

export type Syscall = (typeof DENIED_SYSCALLS)[keyof typeof DENIED_SYSCALLS][number] | 'clone' | 'clone3' | 'personality' | 'socket';

/**
 * Numbers per architecture (x86_64: asm/unistd_64.h; arm64: asm-generic/unistd.h); undefined
 * where the call does not exist. Calls from 424 up share one number on every architecture
 * (open_tree_attr, 467, is Linux 6.15's).
 */
const NUMBERS: Record<Syscall, [x64: number, arm64: number | undefined]> = {
  kexec_load: [246, 104], kexec_file_load: [320, 294], init_module: [175, 105], finit_module: [313, 273],
  delete_module: [176, 106], uselib: [134, undefined], bpf: [321, 280], perf_event_open: [298, 241],
  userfaultfd: [323, 282], io_uring_setup: [425, 425], io_uring_enter: [426, 426], io_uring_register: [427, 427],
  keyctl: [250, 219], add_key: [248, 217], request_key: [249, 218], fanotify_init: [300, 262],
  lookup_dcookie: [212, 18], nfsservctl: [180, 42], ptrace: [101, 117], process_vm_readv: [310, 270],
  process_vm_writev: [311, 271], kcmp: [312, 272], pidfd_getfd: [438, 438], process_madvise: [440, 440],
  mount: [165, 40], umount2: [166, 39], pivot_root: [155, 41], move_mount: [429, 429], open_tree: [428, 428],
  open_tree_attr: [467, 467], fsopen: [430, 430], fsmount: [432, 432], fspick: [433, 433], fsconfig: [431, 431],
  mount_setattr: [442, 442], chroot: [161, 51], setns: [308, 268], unshare: [272, 97],
  open_by_handle_at: [304, 265], name_to_handle_at: [303, 264], swapon: [167, 224], swapoff: [168, 225],
  reboot: [169, 142], acct: [163, 89], quotactl: [179, 60], quotactl_fd: [443, 443], syslog: [103, 116],
  vhangup: [153, 58], iopl: [172, undefined], ioperm: [173, undefined], clock_settime: [227, 112],
  settimeofday: [164, 170], adjtimex: [159, 171], clock_adjtime: [305, 266],
  clone: [56, 220], clone3: [435, 435], personality: [135, 92], socket: [41, 198],
};

export type SeccompArch = 'x64' | 'arm64';
export const syscallNumber = (name: Syscall, arch: SeccompArch): number | undefined => NUMBERS[name][arch === 'x64' ? 0 : 1];
/** AUDIT_ARCH_X86_64 and AUDIT_ARCH_AARCH64 (linux/audit.h): what seccomp_data.arch reads for the native ABI. */
export const AUDIT_ARCH: Record<SeccompArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };
export const X32_SYSCALL_BIT = 0x40000000;

/** clone(2) flags that make namespaces (Docker's default profile refuses the same). */
const CLONE_NAMESPACE_FLAGS = 0x7e020000;
/** personality(2) values allowed, as in Docker's profile: PER_LINUX, PER_LINUX32, UNAME26 alone or with it, and the query. */
const SAFE_PERSONALITIES = [0x0, 0x8, 0x20000, 0x20008, 0xffffffff];
/** AF_VSOCK: the host's (or hypervisor's) vsock services sit outside the game's network namespace and its egress firewall. */
const AF_VSOCK = 40;

export const SECCOMP_RET = { killProcess: 0x80000000, errno: 0x00050000, allow: 0x7fff0000 } as const;
const EPERM = 1;
/** clone3's flags are behind a pointer the filter cannot read: ENOSYS makes glibc and others fall back to clone. */
const ENOSYS = 38;

/** Offsets in struct seccomp_data: nr, arch, then the arguments (u64 each; their low half first on little-endian machines). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

const BPF = { ldAbs: 0x20, jeq: 0x15, jge: 0x35, jset: 0x45, ret: 0x06 } as const;

type Label = 'allow' | 'eperm' | 'enosys' | 'kill' | 'clone' | 'personality' | 'socket';
/** One instruction; a label names it as a jump target. */
type Step = ({ op: 'ld'; offset: number } | { op: 'jeq' | 'jge' | 'jset'; k: number; then: Label | 'next'; otherwise: Label | 'next' } | { op: 'ret'; value: number }) & {
  label?: Label;
};

/** The compiled program for `arch`, or undefined for an architecture it has no numbers for. */
export function seccompProgram(arch: string = process.arch): Buffer | undefined {
  if (arch !== 'x64' && arch !== 'arm64') return undefined;
  const number = (name: Syscall) => syscallNumber(name, arch);
  const denied = Object.values(DENIED_SYSCALLS).flat().map(number).filter((nr): nr is number => nr !== undefined);
  const jumpIf = (k: number, then: Label): Step => ({ op: 'jeq', k, then, otherwise: 'next' });
  const steps: Step[] = [
    { op: 'ld', offset: ARCH },
    { op: 'jeq', k: AUDIT_ARCH[arch], then: 'next', otherwise: 'kill' },
    { op: 'ld', offset: NR },
    ...(arch === 'x64' ? [{ op: 'jge', k: X32_SYSCALL_BIT, then: 'eperm', otherwise: 'next' } as const] : []),
    ...denied.map((nr) => jumpIf(nr, 'eperm')),
    jumpIf(number('clone')!, 'clone'),
    jumpIf(number('clone3')!, 'enosys'),
    jumpIf(number('personality')!, 'personality'),
    jumpIf(number('socket')!, 'socket'),
    { op: 'ret', value: SECCOMP_RET.allow },
    // Calls allowed or not by their first argument (only its low half: the kernel reads no more of these).
    { op: 'ld', offset: ARG0_LOW, label: 'clone' },
    { op: 'jset', k: CLONE_NAMESPACE_FLAGS, then: 'eperm', otherwise: 'allow' },
    { op: 'ld', offset: ARG0_LOW, label: 'personality' },
    ...SAFE_PERSONALITIES.map((value) => jumpIf(value, 'allow')),
    { op: 'ret', value: SECCOMP_RET.errno | EPERM },
    { op: 'ld', offset: ARG0_LOW, label: 'socket' },
    { op: 'jeq', k: AF_VSOCK, then: 'eperm', otherwise: 'allow' },
    { op: 'ret', value: SECCOMP_RET.allow, label: 'allow' },
    { op: 'ret', value: SECCOMP_RET.errno | EPERM, label: 'eperm' },
    { op: 'ret', value: SECCOMP_RET.errno | ENOSYS, label: 'enosys' },
    { op: 'ret', value: SECCOMP_RET.killProcess, label: 'kill' },
  ];
  return assemble(steps);
}

function assemble(steps: Step[]): Buffer {
  const at = new Map<Label, number>();
  steps.forEach((step, index) => step.label && at.set(step.label, index));
  const program = Buffer.alloc(steps.length * 8);
  steps.forEach((step, index) => {
    const offset = (target: Label | 'next') => {
      const distance = target === 'next' ? 0 : at.get(target)! - index - 1;
      // Conditional jumps are forward only and reach at most 255 instructions.
      if (!(distance >= 0 && distance <= 255)) throw new Error(`seccomp: a jump to ${target} out of reach`);
      return distance;
    };
    const [code, jt, jf, k] =
      step.op === 'ld' ? [BPF.ldAbs, 0, 0, step.offset] : step.op === 'ret' ? [BPF.ret, 0, 0, step.value] : [BPF[step.op], offset(step.then), offset(step.otherwise), step.k];
    // struct sock_filter in the host's byte order (both architectures here are little-endian).
    program.writeUInt16LE(code, index * 8);
    program.writeUInt8(jt, index * 8 + 2);
    program.writeUInt8(jf, index * 8 + 3);
    program.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return program;
}

/** Where bubblewrap reads the program: the launcher opens the filter file on this descriptor (one digit: dash's redirections take no more). */
export const SECCOMP_FD = 9;

export type SeccompFile = { ok: true; file: string } | { ok: false; problem: string };

/**
 * The program, written for this machine's architecture to a root-owned read-only file under
 * /run (root's alone to create files in), named by its content so services of different
 * versions side by side keep their own; replaced whole (temp file and rename).
 */
export function writeSeccompFile(dir = '/run', arch: string = process.arch): SeccompFile {
  const program = endianness() === 'LE' ? seccompProgram(arch) : undefined;
  if (!program) return { ok: false, problem: `no seccomp filter for this architecture (${arch}; x64 and arm64 have one)` };
  const file = `${dir}/session-host-seccomp-${createHash('sha256').update(program).digest('hex').slice(0, 16)}.bpf`;
  try {
    // Written anew at each start, whatever an older file holds.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, program, { mode: 0o444 });
    // Whatever the umask.
    chmodSync(temp, 0o444);
    renameSync(temp, file);
    return { ok: true, file };
  } catch (error) {
    return { ok: false, problem: `the seccomp filter could not be written to ${dir} (${(error as Error).message})` };
  }
}
