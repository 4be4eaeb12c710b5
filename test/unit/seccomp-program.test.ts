/**
 * The seccomp program (server/runtime/process/seccomp.ts), run by a classic-BPF interpreter for
 * the instructions it uses, on both architectures it has numbers for: every denied call answers
 * EPERM, ordinary calls pass, another ABI is killed, x32 refused, and the calls judged by their
 * first argument (clone, personality, socket) are judged by what the kernel reads of it.
 * test/api/containment-seccomp.test.ts runs the same program in the kernel, on this machine's one.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ARCH, DENIED_SYSCALLS, SECCOMP_RET, seccompProgram, syscallNumber, writeSeccompFile, X32_SYSCALL_BIT, type SeccompArch } from '../../server/runtime/process/seccomp.js';

/** Runs `program` on one struct seccomp_data, as the kernel would: the action it returns. */
function verdict(program: Buffer, nr: number, arch: number, args: bigint[] = []): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  args.forEach((arg, i) => data.writeBigUInt64LE(arg, 16 + 8 * i));
  let a = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const [code, jt, jf, k] = [program.readUInt16LE(pc * 8), program.readUInt8(pc * 8 + 2), program.readUInt8(pc * 8 + 3), program.readUInt32LE(pc * 8 + 4)];
    if (code === 0x20) a = data.readUInt32LE(k);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x45) pc += (a & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`instruction ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the program ran off its end');
}

const EPERM = SECCOMP_RET.errno | 1;
const ENOSYS = SECCOMP_RET.errno | 38;
/** Calls every game server makes (read, write, openat, mmap, futex, execve, exit_group, getpid). */
const ORDINARY: Record<SeccompArch, number[]> = { x64: [0, 1, 257, 9, 202, 59, 231, 39], arm64: [63, 64, 56, 222, 98, 221, 94, 172] };
/** Another ABI of the same machine: i386 on x86_64, arm32 on arm64. */
const FOREIGN: Record<SeccompArch, number> = { x64: 0x40000003, arm64: 0x40000028 };

describe.each(['x64', 'arm64'] as const)('the seccomp program for %s', (arch) => {
  const program = seccompProgram(arch)!;
  const native = AUDIT_ARCH[arch];
  const call = (name: Parameters<typeof syscallNumber>[0], first?: bigint) => verdict(program, syscallNumber(name, arch)!, native, first === undefined ? [] : [first]);

  it('is a whole number of instructions, within the kernel\'s limit', () => {
    expect(program.length % 8).toBe(0);
    expect(program.length / 8).toBeLessThan(4096);
  });

  it('answers every denied call with EPERM, on its own architecture only', () => {
    const denied = Object.values(DENIED_SYSCALLS).flat().filter((name) => syscallNumber(name, arch) !== undefined);
    expect(denied.length).toBeGreaterThan(50);
    for (const name of denied) expect([name, call(name)]).toEqual([name, EPERM]);
  });

  it('lets ordinary calls through', () => {
    for (const nr of ORDINARY[arch]) expect(verdict(program, nr, native)).toBe(SECCOMP_RET.allow);
  });

  it('kills a call through another ABI, whatever its number', () => {
    for (const nr of [...ORDINARY[arch], syscallNumber('bpf', arch)!]) expect(verdict(program, nr, FOREIGN[arch])).toBe(SECCOMP_RET.killProcess);
  });

  it('refuses clone with a namespace flag, and sends clone3 (flags out of its reach) back to clone', () => {
    const CLONE_THREAD_FLAGS = 0x3d0f00n;
    expect(call('clone', CLONE_THREAD_FLAGS)).toBe(SECCOMP_RET.allow);
    for (const flag of [0x20000n, 0x02000000n, 0x04000000n, 0x08000000n, 0x10000000n, 0x20000000n, 0x40000000n]) expect(call('clone', CLONE_THREAD_FLAGS | flag)).toBe(EPERM);
    expect(call('clone3')).toBe(ENOSYS);
  });

  it('allows only the personalities that weaken nothing (the kernel reads the low 32 bits)', () => {
    for (const value of [0n, 0x8n, 0x20000n, 0x20008n, 0xffffffffn, 0x1_00000000n]) expect(call('personality', value)).toBe(SECCOMP_RET.allow);
    // ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC, ADDR_LIMIT_3GB.
    for (const value of [0x0040000n, 0x0400000n, 0x8000000n, 0x1_00040000n]) expect(call('personality', value)).toBe(EPERM);
  });

  it('refuses vsock sockets and no others', () => {
    expect(call('socket', 40n)).toBe(EPERM);
    for (const family of [1n, 2n, 10n, 16n]) expect(call('socket', family)).toBe(SECCOMP_RET.allow);
  });
});

describe('the seccomp program', () => {
  it('refuses x32 calls on x86_64 (the same architecture for seccomp, other numbers)', () => {
    const program = seccompProgram('x64')!;
    expect(verdict(program, X32_SYSCALL_BIT | 39, AUDIT_ARCH.x64)).toBe(EPERM);
    expect(verdict(program, 0xffffffff, AUDIT_ARCH.x64)).toBe(EPERM);
  });

  it('is written read-only, named by its content; an architecture it has no numbers for is a problem, not an empty filter', () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-host-seccomp-'));
    try {
      const written = writeSeccompFile(dir, 'x64');
      if (!written.ok) throw new Error(written.problem);
      expect(readFileSync(written.file)).toEqual(seccompProgram('x64'));
      expect(statSync(written.file).mode & 0o777).toBe(0o444);
      expect(writeSeccompFile(dir, 'x64')).toEqual(written);
      expect(writeSeccompFile(dir, 'riscv64')).toMatchObject({ ok: false, problem: expect.stringContaining('riscv64') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
