/**
 * The process runtime's seccomp filter (server/runtime/process/seccomp.ts), tried by a hostile
 * game server in the real sandbox (test/support/attacker.sh): the calls it denies answer EPERM
 * (with arguments that succeed, or fail otherwise, for an unprivileged process without the
 * filter), the calls it allows work, a call through another ABI kills the process, and the game
 * server (Node, which tries io_uring first when asked to) keeps running and serving.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { syscallNumber, X32_SYSCALL_BIT, type SeccompArch, type Syscall } from '../../server/runtime/process/seccomp.js';
import { attackerImage } from '../support/attacker.js';
import { testFleet, useService } from '../support/service.js';
import { hostPort, runtimeDir, tcpExchange, waitForStatus } from '../support/sessions.js';

const arch = process.arch as SeccompArch;
/** Denied, each tried with arguments test/support/attacker-syscalls.pl gives it. */
const DENIED: Syscall[] = ['io_uring_setup', 'userfaultfd', 'keyctl', 'add_key', 'unshare', 'setns', 'ptrace', 'process_vm_readv', 'kcmp', 'name_to_handle_at', 'syslog', 'perf_event_open', 'mount', 'chroot'];

/** The seccomp mode (2: a filter) of each process of `uid` but the sandbox's own pasta and bwrap, by command name. */
function seccompModes(uid: number): Record<string, string> {
  const modes: Record<string, string> = {};
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name: string) => new RegExp(`^${name}:\\s+(\\S+)`, 'm').exec(status)?.[1];
      if (Number(field('Uid')) !== uid || /^(pasta|bwrap)/.test(field('Name') ?? '')) continue;
      modes[`${field('Name')} ${pid}`] = field('Seccomp') ?? '?';
    } catch {
      // Gone meanwhile.
    }
  }
  return modes;
}

describe.skipIf(arch !== 'x64')('the seccomp filter of a game server in the process runtime sandbox', () => {
  let next = 0;
  const newId = () => `sc-${process.pid}-${++next}`;
  const fleet = testFleet((fleet) => {
    fleet.images.push(attackerImage('attacker', { pids: 48, memoryMb: 128 }));
    fleet.pools = [{ location: 'local-a', image: 'echo', tag: 'latest', warm: 1 }];
  });
  const service = useService({}, { fleet });
  const run = async (env: Record<string, string>) => {
    const id = newId();
    expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'attacker', env } })).status).toBe(201);
    const session = await waitForStatus(service.call, id, ['running']);
    return { session, log: (await service.call('GET', `/logs?id=${id}`)).text };
  };
  const numbered = (entries: [string, number][]) => entries.map(([name, nr]) => `${name}=${nr}`).join(' ');

  it('answers the calls it denies with EPERM and lets the others work; Node falls back from io_uring and serves', async () => {
    const calls = numbered([
      ...DENIED.map((name): [string, number] => [name, syscallNumber(name, arch)!]),
      // Only values that could weaken the process are refused; the query is allowed.
      ['personality', syscallNumber('personality', arch)!],
      ['personality_query', syscallNumber('personality', arch)!],
      // AF_VSOCK: the host's vsock services, which no network namespace or egress firewall covers.
      ['socket', syscallNumber('socket', arch)!],
      // clone with a namespace flag (CLONE_NEWUSER).
      ['clone', syscallNumber('clone', arch)!],
      // An x32 call (getpid): the same architecture for seccomp, other numbers.
      ['x32_getpid', X32_SYSCALL_BIT | 39],
      ['getpid', 39],
    ]);
    // libuv tries io_uring at its first file operation when asked to (Node 20 by default does not).
    const { session, log } = await run({ ATTACK: 'syscalls', SYSCALLS: calls, UV_USE_IO_URING: '1' });
    for (const name of [...DENIED, 'personality', 'socket', 'clone', 'x32_getpid']) expect(log).toContain(`SYSCALL ${name} errno 1\n`);
    expect(log).toContain('SYSCALL personality_query ok\n');
    expect(log).toContain('SYSCALL getpid ok\n');
    expect(await tcpExchange(session.host, hostPort(session, 'tcp'), 'hello')).toBe(`echo ${session.id} hello`);
  });

  it('kills a process that calls through another ABI (i386\'s int 0x80), whose numbers the filter does not check', async () => {
    const { log } = await run({ ATTACK: 'i386' });
    // 128 + SIGSYS (31): killed by the filter. Without it the call returns and the program exits 0.
    expect(log).toContain('I386 159\n');
  });

  it('filters every game server, however it starts: from its spare\'s launcher, from perl, after a crash, from a warm pool', async () => {
    const start = async (body: object) => {
      const id = newId();
      const started = await service.call('POST', '/session', { body: { id, location: 'local-a', ...body } });
      expect(started.status).toBe(201);
      await waitForStatus(service.call, id, ['running']);
      return { id, warm: started.json.status === 'running' };
    };
    const expectFiltered = async (id: string) => {
      const { uid } = JSON.parse(readFileSync(join(await runtimeDir(service.running, id), 'state.json'), 'utf8'));
      await vi.waitFor(() => {
        const modes = Object.values(seccompModes(uid));
        expect(modes.length).toBeGreaterThan(0);
        expect(modes.every((mode) => mode === '2')).toBe(true);
      });
    };
    // A name the shell cannot export makes the game start from perl (launcher.mjs, spawnGame).
    const fromPerl = await start({ image: 'echo', env: { 'game.mode': 'ctf' } });
    await expectFiltered(fromPerl.id);
    const warm = await vi.waitFor(async () => {
      const claimed = await start({ image: 'echo' });
      expect(claimed.warm).toBe(true);
      return claimed;
    }, { timeout: 20_000, interval: 250 });
    await expectFiltered(warm.id);
    // Restarted by its supervisor (spawnGame) after it crashes.
    const phoenix = await start({ image: 'echo', env: { ECHO_CRASH_AFTER_MS: '3000' }, restart: true });
    await expectFiltered(phoenix.id);
    await waitForStatus(service.call, phoenix.id, ['restarting']);
    await waitForStatus(service.call, phoenix.id, ['running']);
    await expectFiltered(phoenix.id);
  });
});
