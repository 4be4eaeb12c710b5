/**
 * Spare supervisors spawned from a small helper process (spare-spawner-process.mjs), never by
 * forking the service: a fork copies the forker's page tables, which for the ~250 MB service held
 * its event loop 5-16 ms per spare (4-32 ms at load 11-15 on 2 cores), and every spare is spawned
 * while the service serves (right after a start's game server runs, or a warm pool's refill). The
 * helper is forked when the first spare is wanted, again after it ended, and ends with the service
 * (or `close`): it watches its stdin, whose other end only this process holds. It hands over each
 * spare's stdin and launcher pipe on its IPC channel.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { isSameProcess } from './proc.js';

const HELPER = join(import.meta.dirname, 'spare-spawner-process.mjs');
/**
 * The descriptors a spare's two pipes take here, checked for before each spawn: a descriptor sent
 * to a process whose table is full is dropped by the kernel, and the helper's handoff with it.
 */
const PIPES = 2;
/** Past this the handoff counts as lost (the table filled up after the check) and the spawn as failed. */
const HANDOFF_TIMEOUT_MS = 10_000;

export interface SpawnedSpare {
  pid: number;
  /** Its start time (proc-start.mjs), read right after its spawn; undefined: already gone. */
  start: string | undefined;
  /** Where its session is written (its stdin). */
  stdin: Socket;
  /** The pipe its launcher reads the game's command from. */
  launcher: Socket;
  /** Its first line on stdout ('' when it ended without one), and its launcher's start time then. */
  said: Promise<SpareSaid>;
}

export interface SpareSaid {
  said: string;
  launcherStart: string | undefined;
}

/** The helper's messages: one spare's error, or its pipes (each with its handle), or its first line. */
type HelperMessage =
  | { id: number; error: string }
  | { id: number; pid: number; start?: string; pipe: 'stdin' }
  | { id: number; pipe: 'launcher' }
  | ({ id: number } & SpareSaid);

interface Pending {
  spawned: (spare: SpawnedSpare) => void;
  failed: (error: Error) => void;
  tell: (said: SpareSaid) => void;
  said: Promise<SpareSaid>;
  timer: NodeJS.Timeout;
  pid?: number;
  start?: string;
  stdin?: Socket;
  /** Its pipes are here (it was resolved): what is left is its first line. */
  handedOver?: boolean;
}

const NOTHING_SAID: SpareSaid = { said: '', launcherStart: undefined };

export class SpareSpawner {
  private helper: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  /** `env`: the spares' whole environment (and the helper's). */
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** A spare supervisor (`file` run with `args`), once its pipes are here; rejected when none could be made. */
  spawn(file: string, args: string[]): Promise<SpawnedSpare> {
    if (!hasDescriptors(PIPES)) return Promise.reject(new Error('this process has no file descriptors to spare'));
    const helper = this.helper ?? this.startHelper();
    if (!helper) return Promise.reject(new Error('the spare spawner could not be started'));
    const id = this.nextId++;
    return new Promise<SpawnedSpare>((spawned, failed) => {
      let tell!: (said: SpareSaid) => void;
      const said = new Promise<SpareSaid>((resolve) => (tell = resolve));
      const timer = setTimeout(() => this.settle(id, new Error('the spare spawner handed over no pipes in time')), HANDOFF_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { spawned, failed, tell, said, timer });
      // Held open while a spawn is pending (a start may wait for it), not otherwise.
      helper.channel?.ref();
      helper.send({ id, file, args, env: this.env }, (error: Error | null) => {
        if (error) this.settle(id, error);
      });
    });
  }

  /** The helper ends (its spares do not: each ends once its stdin closes). */
  close(): void {
    const helper = this.helper;
    this.helper = undefined;
    if (helper) this.helperGone(helper);
    // Its stdin closed ends it even with a handoff unacknowledged (which holds back its 'disconnect').
    helper?.stdin?.destroy();
    if (helper?.connected) helper.disconnect();
  }

  private startHelper(): ChildProcess | undefined {
    let helper: ChildProcess;
    try {
      // Its stdin: a pipe this process never writes to, whose end closes with this process however it ends (kill -9 included).
      helper = fork(HELPER, [], { execArgv: [], env: this.env, stdio: ['pipe', 'ignore', 'ignore', 'ipc'], serialization: 'json' });
    } catch {
      return undefined;
    }
    // One that could not be spawned (out of descriptors or processes) says so here; one that dies is forked again when next wanted.
    helper.on('error', () => this.helperGone(helper));
    helper.on('exit', () => this.helperGone(helper));
    helper.on('disconnect', () => this.helperGone(helper));
    if (helper.pid === undefined) return undefined;
    helper.on('message', (message: HelperMessage, handle?: Socket) => this.received(message, handle));
    helper.unref();
    helper.channel?.unref();
    // Nothing is written to it: it neither holds the service open nor fails it when the helper has gone.
    (helper.stdin as Socket | null)?.unref();
    helper.stdin?.on('error', () => {});
    this.helper = helper;
    return helper;
  }

  private received(message: HelperMessage, handle: Socket | undefined) {
    const pending = this.pending.get(message.id);
    if (!pending) {
      // Given up on (timed out): its pipes closed here end it.
      handle?.destroy();
      return;
    }
    if ('error' in message) return this.settle(message.id, new Error(message.error));
    if ('said' in message) {
      this.pending.delete(message.id);
      pending.tell({ said: message.said, launcherStart: message.launcherStart });
      return;
    }
    if (!handle) return this.settle(message.id, new Error('the spare spawner handed over no pipe'));
    // Neither pipe holds the service open, and one that breaks (its spare died) fails only a write to it.
    handle.unref();
    handle.on('error', () => {});
    if (message.pipe === 'stdin') {
      Object.assign(pending, { pid: message.pid, start: message.start, stdin: handle });
      return;
    }
    clearTimeout(pending.timer);
    pending.handedOver = true;
    this.unrefIfIdle();
    pending.spawned({ pid: pending.pid!, start: pending.start, stdin: pending.stdin!, launcher: handle, said: pending.said });
  }

  /** A spawn that failed: its spare (if it got as far as running) is ended, and nothing is handed over. */
  private settle(id: number, error: Error) {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    this.unrefIfIdle();
    if (pending.handedOver) return pending.tell(NOTHING_SAID);
    pending.stdin?.destroy();
    if (pending.pid !== undefined && pending.start !== undefined && isSameProcess(pending.pid, pending.start)) process.kill(pending.pid, 'SIGKILL');
    pending.failed(error);
  }

  /** Whatever it had not handed over fails; a spare handed over and still loading is taken as one that said nothing. */
  private helperGone(helper: ChildProcess) {
    if (this.helper === helper) this.helper = undefined;
    for (const id of this.pending.keys()) this.settle(id, new Error('the spare spawner ended'));
  }

  private unrefIfIdle() {
    if ([...this.pending.values()].every((pending) => pending.handedOver)) this.helper?.channel?.unref();
  }
}

/** Whether `count` more descriptors can be opened here now. */
function hasDescriptors(count: number): boolean {
  const opened: number[] = [];
  try {
    while (opened.length < count) opened.push(openSync('/dev/null', 'r'));
    return true;
  } catch {
    return false;
  }
  finally {
    for (const fd of opened) closeSync(fd);
  }
}
