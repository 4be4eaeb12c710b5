#!/usr/bin/env node
// The per-session supervisor (a shim, like containerd's): it owns one game server, outlives the
// service, and records what happens in state.json in the session directory, which the service
// watches. Plain JavaScript so it starts fast without a TypeScript loader.
//
// It is started ahead of need (so Node's start-up is off a session's critical path), forks the
// process the game server will be started from (launcher.mjs: already in the spare cgroups the
// service made for it) and reads one JSON line on stdin: { dir, spec } (see
// process-runtime.ts). The game server gets exactly spec.env. Stdin closing with nothing on it
// (the service went away) ends it, its launcher and the spare cgroups.
//
// state.json phases: starting -> running (all declared ports bound, or, with `readiness: sdk`,
// the game server's `POST /ready` on its SDK socket) -> [restarting -> running]*
// -> ended { exitCode, signal, at, stopped }. Written atomically (temp file + rename).
// It also serves the session's game-server SDK (sdk-server.mjs) on spec.sdk.socketPath.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, readFileSync, readSync, renameSync, rmSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundPorts, socketCounts } from '../socket-table.mjs';
import { chargedPages, childInOtherNetns, directoryUsage, openDeletedBytes, openDescriptors, removeCgroups, sandboxedProcesses, signalCgroups } from './game-tree.mjs';
import { dismiss, forkLauncher, gameCommand, sayGo, spawnGame } from './launcher.mjs';
import { openOutputLog, readAtRate } from './output-log.mjs';
import { processStartTime as startTimeOf } from './proc-start.mjs';
import { sdkLiveness, serveSdk, warmUp } from '../sdk-server.mjs';
import { restartBackoff } from './restart-backoff.mjs';
import { serveHandoff, warmUpHandoff } from './warm-handoff.mjs';

// The launcher the game server will be started from, in the spare cgroups the service made
// (--join=<dir>, one per controller): the service learns on stdout whether it is in them (and its pid). It
// reads its command from the service's pipe on fd 3, which is the launcher's alone from here
// (closed here, so the service's end closing is the launcher's end of input).
const LAUNCHER_COMMANDS_FD = 3;
const spareCgroups = process.argv.filter((arg) => arg.startsWith('--join=')).map((arg) => arg.slice('--join='.length));
let launcher = forkLauncher(spareCgroups, LAUNCHER_COMMANDS_FD);
closeSync(LAUNCHER_COMMANDS_FD);
process.stdout.on('error', () => {});
const joined = await launcher.joined;
process.stdout.write(`${joined ? 'joined' : 'not joined'} ${launcher.child.pid}\n`);
// The service makes the session's cgroups afresh then: these go.
if (!joined && spareCgroups.length > 0) await releaseCgroups(spareCgroups);
// Read while it waits: the launcher's pid becomes the game's when it execs the game's command.
const launcherStart = joined ? startTimeOf(launcher.child.pid) : undefined;
// Spawned ahead of need (at low priority): its SDK server's first requests are paid now, not
// while its game server starts (sdk-server.mjs), and its first warm handoff's code is compiled
// now, not on the start's path (warm-handoff.mjs), nor is the path from its session to its go
// (warmStartPath). A session that arrives meanwhile waits for it.
if (process.argv.includes('--warm-up')) {
  await warmUp();
  await warmUpHandoff();
  warmStartPath();
}
// Also read while it waits: its own start time, and (through its launcher) the game's output,
// written to the session's log once there is one (the launcher writes nothing before the go).
const ownStart = startTimeOf(process.pid);
let output;
// At the session's rate, set once the session is known (nothing is written before the go).
const outputRate = { bytesPerSecond: 0, burstBytes: 0 };
readAtRate(launcher.child.stdout, outputRate, (chunk) => output?.write(chunk));

const input = firstLine(0);
if (input.trim() === '') {
  // No session (the service closed): the launcher and its cgroups go too.
  dismiss(launcher);
  await releaseCgroups(spareCgroups);
  process.exit(0);
}
const { dir, spec } = JSON.parse(input);

/**
 * Its session is one line, read as soon as it is whole (not when the service closes the pipe
 * after it), by blocking in read(2): a spare has nothing else to do, and the first pass through
 * Node's stream machinery after the wake-up cost a start ~1 ms of the supervisor's CPU before
 * its go. Its end without a newline (the service closed it) is the line.
 */
function firstLine(fd) {
  const chunks = [];
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let read;
    try {
      read = readSync(fd, buffer);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      // Not a blocking descriptor after all: a millisecond's sleep, and again.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      continue;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
    if (buffer.subarray(0, read).includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split('\n', 1)[0];
}
// Relative paths (the SDK socket's: a unix socket path is at most 108 bytes) are the session directory's.
process.chdir(dir);
// Its own stdout and stderr are not kept: anything unexpected goes to the session directory.
process.on('uncaughtException', (error) => {
  try {
    writeFileSync(join(dir, 'supervisor.log'), `${new Date().toISOString()} ${error.stack ?? error}\n`, { flag: 'a' });
  } catch {
    // Its directory may be gone (the error may be that).
  }
  // A game server never runs without its supervisor (nothing else holds it to its work
  // directory's limit or answers its SDK): it goes first. The service then finds the session lost.
  try {
    if (game?.pid) signalGame('SIGKILL');
  } catch {
    // Not launched yet (`game` not even declared).
  }
  process.exit(70);
});

/**
 * The readiness poll: every READY_POLL_MS for a launch's first READY_FAST_MS (a start's latency is
 * this poll's: most game servers bind by then), then READY_LATENESS of the time since the launch
 * (a game server that took t to bind is seen running at most t/10 later), up to READY_POLL_MAX_MS.
 * Polling every 2 ms throughout cost a game server that never binds its ports ~5-8% of a core for
 * its whole start deadline, in its supervisor, outside its cgroups (outside check 7, finding 2).
 */
const READY_POLL_MS = 2;
const READY_FAST_MS = 200;
const READY_LATENESS = 0.1;
const READY_POLL_MAX_MS = 100;
/** The socket tables are read whatever the counts say this often (FULL_CHECK_MAX_MS once the poll has backed off). */
const FULL_CHECK_MS = 250;
const FULL_CHECK_MAX_MS = 1000;
const DEFAULT_OUTPUT_BYTES = 64 * 1024 * 1024;
const DEFAULT_OUTPUT_BYTES_PER_SECOND = 1024 * 1024;
/** Output read at once, at most, after a quiet spell (a start's burst of logging): this many seconds' worth of the rate. */
const OUTPUT_BURST_SECONDS = 8;
/** How long output still in the pipe is read after the game server exited. */
const DRAIN_MS = 500;
const WORK_DIR_CHECK_MS = 100;
const WORK_DIR_CHECK_MAX_MS = 1000;
/** A check may take at most this share of the supervisor's time (1/20th), so a large work directory is walked less often. */
const WORK_DIR_CHECK_EVERY_SCAN_COST = 20;
/** 1 MiB of pages charged to the game tree's memory cgroup: it may have written to a file it unlinked. */
const WORK_DIR_WRITTEN_PAGES = 256;
/** Past this many files and directories the work directory counts as over its limit (walking it must stay cheap), whatever `workDirEntries` says. */
const WORK_DIR_MAX_ENTRIES = 100_000;
/**
 * The game server's open files (`sessionOpenFiles`, all its processes together) are counted every
 * OPEN_FILES_CHECK_MS, or OPEN_FILES_CHECK_EVERY_COST times what a count took when that is longer
 * (at most OPEN_FILES_CHECK_MAX_MS): a count costs ~0.06 ms of the supervisor's CPU for a few
 * processes, ~0.4 ms for 44 (each process's namespace read once; then one stat per process), on the
 * loaded 2-core test VM. `openFiles` is per process and `pids` per session, so without it one
 * session could hold pids x openFiles entries of the host's file table (256 x 1,024 by default),
 * and ten such fill fs.file-max for every tenant (outside check 9, F6); with it, pids x openFiles
 * only for the moment until the next count.
 */
const OPEN_FILES_CHECK_MS = 250;
const OPEN_FILES_CHECK_MAX_MS = 2000;
const OPEN_FILES_CHECK_EVERY_COST = 100;
const backoff = restartBackoff();

const state = {
  supervisorPid: process.pid,
  supervisorStart: ownStart,
  gamePid: null,
  gameStart: null,
  uid: spec.sandbox?.uid ?? null,
  // Whose it is: the retention's disk budget is shared out by account.
  accountId: spec.accountId ?? null,
  phase: 'starting',
  // The instance (data directory) that started it: another instance never adopts or stops it.
  instanceId: process.argv.find((arg) => arg.startsWith('--instance='))?.slice('--instance='.length) ?? null,
  restarts: 0,
  at: Date.now(),
};

function save(changes) {
  Object.assign(state, changes, { at: Date.now() });
  persist();
}

const SAVE_RETRY_MS = 250;
let saveRetry;
/**
 * Writes state.json. When it cannot (a full disk) the state stays in memory and the write is
 * retried until it succeeds: the service learns the truth once there is space again, and the
 * supervisor lives until then (its exit without an end state would read as a lost node).
 */
function persist() {
  clearTimeout(saveRetry);
  saveRetry = undefined;
  if (writeJson('state.json', state)) return;
  // No space left: the space kept for this, if it is still there, then again.
  if (releaseStateSpace() && writeJson('state.json', state)) return;
  saveRetry = setTimeout(persist, SAVE_RETRY_MS);
}

/**
 * Space kept on the session directory's disk for the states to come. That disk fills up (every
 * session's game servers write there; with PostgreSQL the store is elsewhere and goes on): a
 * stopped game server's end then never reached state.json, and the service, past the stop's
 * deadline, ended the session as a lost node (node_lost) instead of stopped; a crash was not
 * seen at all until space came back (outside check). Made once the game server is launched (off
 * a start's path), given up when a state does not fit, removed when the supervisor is done.
 */
const STATE_RESERVE = 'state.reserve';
const STATE_RESERVE_BYTES = 64 * 1024;
function reserveStateSpace() {
  try {
    // Not zeros: a compressing file system would keep nothing for them.
    writeFileSync(join(dir, STATE_RESERVE), randomBytes(STATE_RESERVE_BYTES), { mode: 0o600, flag: 'wx' });
  } catch {
    // Full already (or kept by an earlier supervisor of this session): no reserve to give up.
  }
}
function releaseStateSpace() {
  try {
    unlinkSync(join(dir, STATE_RESERVE));
    return true;
  } catch {
    return false;
  }
}

/** Replaces `name` in the session directory (or `directory`) whole (readers never see half a file); false when it cannot. */
function writeJson(name, value, directory = dir) {
  try {
    const temp = join(directory, `${name}.tmp`);
    writeFileSync(temp, JSON.stringify(value), { mode: 0o600 });
    renameSync(temp, join(directory, name));
    return true;
  } catch {
    return false;
  }
}

/**
 * What runs between its session and its go, run once on throwaway files while a spare waits (as
 * the SDK's warmUp): the first use of each Node path in a fresh process costs far more than the
 * next (~1 ms of CPU from the session to the go, here), and a start waits for that. Also the
 * clock its readiness poll reads (Node loads `performance` on first use: ~0.8 ms of CPU, paid
 * just as the game server starts otherwise). Whether or not it worked: it only warms.
 */
function warmStartPath() {
  performance.now();
  let scratch;
  try {
    scratch = mkdtempSync(join(tmpdir(), 'session-host-start-warm-up-'));
    JSON.parse(JSON.stringify({ dir: scratch, spec: { env: {}, ports: [] } }));
    writeJson('state.json', { supervisorPid: process.pid, gamePid: null, phase: 'starting', restarts: 0, at: Date.now() }, scratch);
    // A literal size: this module's constants are not set yet while a spare waits.
    openOutputLog(join(scratch, 'output.log'), 4096).close();
  } catch {
    // Nothing warmed: the start works all the same.
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Players the game server reports connected go to connected.json, at most once a second, not to
 * state.json: the service reads state.json on each of its changes and every second, and a game
 * server may flip players as fast as it likes (up to 1,024 ids of 128 characters). Informational,
 * so a write that fails (a full disk) waits for the next change.
 */
const CONNECTED_WRITE_MS = 1000;
let connectedLatest;
let connectedTimer;
function recordConnected(connected) {
  connectedLatest = connected;
  connectedTimer ??= setTimeout(() => {
    connectedTimer = undefined;
    // When it fails: kept in memory (the SDK's allocation still answers it), written with the next change.
    writeJson('connected.json', connectedLatest);
  }, CONNECTED_WRITE_MS);
}

function exitOnceSaved() {
  if (saveRetry === undefined) {
    releaseStateSpace();
    process.exit(0);
  }
  setTimeout(exitOnceSaved, SAVE_RETRY_MS);
}

/**
 * Signal the game server. Sandboxed, by what it cannot leave (its cgroup and pid namespace; it can
 * leave its process group and session: setsid): a graceful signal goes to every process in its pid
 * namespace but that namespace's init (bubblewrap's, which neither handles nor forwards it), so
 * bwrap then exits with the game's status; SIGKILL goes to the init too, whose death kills the
 * whole namespace, and bwrap reports exit 137 as for the kernel's OOM kill. Unsandboxed (trusted
 * code), its process group.
 */
function signalGame(signal) {
  const cgroup = spec.sandbox?.cgroups?.[0];
  if (!cgroup) return signalGroup(signal);
  const { inits, others } = sandboxedProcesses(cgroup);
  let reached = 0;
  for (const pid of signal === 'SIGKILL' ? [...inits, ...others] : others) {
    try {
      process.kill(pid, signal);
      reached++;
    } catch {}
  }
  return reached > 0;
}

function signalGroup(signal) {
  try {
    process.kill(-game.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** How often a stop looks again for a game server to send its SIGTERM to, while the sandbox is still being set up. */
const TERM_RETRY_MS = 20;

/**
 * The stop's SIGTERM, once, to the game server of this launch. A stop that comes while bwrap is
 * still setting the sandbox up finds no game process yet: the signal went nowhere, and the stop
 * waited its whole grace period for the kill (outside check 8). It is sent when the game appears.
 */
function terminateGame(launched = game) {
  if (launched !== game || launched.exitCode !== null || launched.signalCode !== null) return;
  if (signalGame('SIGTERM')) return;
  setTimeout(() => terminateGame(launched), TERM_RETRY_MS).unref();
}

/** Everything of the session: the game's process group (pasta, bwrap) and whatever is in its cgroups. */
function killEverything() {
  signalGroup('SIGKILL');
  signalCgroups(spec.sandbox?.cgroups ?? [], 'SIGKILL');
}

const KILL_RECHECK_MS = 250;
/** Kills by the sandbox (exit 137) before everything of the session is killed (should the sandbox not be set up yet). */
const KILL_TRIES_BY_SANDBOX = 4;

/**
 * The supervisor's own kill of the game server of this launch (its work directory's limit, its
 * health): looked at again every KILL_RECHECK_MS until it is gone.
 */
function killGame(launched = game, tries = 0) {
  if (launched !== game || launched.exitCode !== null || launched.signalCode !== null) return;
  launched.killedHere = true;
  if (tries < KILL_TRIES_BY_SANDBOX) signalGame('SIGKILL');
  else killEverything();
  setTimeout(() => killGame(launched, tries + 1), KILL_RECHECK_MS);
}

output = openOutputLog(join(dir, 'output.log'), spec.outputBytes ?? DEFAULT_OUTPUT_BYTES);
outputRate.bytesPerSecond = spec.outputBytesPerSecond ?? DEFAULT_OUTPUT_BYTES_PER_SECOND;
outputRate.burstBytes = outputRate.bytesPerSecond * OUTPUT_BURST_SECONDS;
let game;
/** A crashed game server's relaunch, waiting out its backoff: a stop meanwhile ends the session at once. */
let relaunch;
/** When the current game server was launched (monotonic ms): how long it ran decides its restart's wait. */
let gameLaunchedAt = 0;
let stopping = false;
/** The work directory passed its size limit, or the session its open files': the game server was killed and is not restarted. */
let overLimit = false;
let killTimer;

function launch() {
  // The first launch is the launcher's when the service told it the game's command (it was in the
  // session's cgroups): it runs it on our go, given once the game's pid is in state.json (so a
  // supervisor killed from here on leaves a game server the service can find and end).
  const useLauncher = launcher && spec.launcherTold === true;
  if (!useLauncher) dismiss(launcher);
  const taken = useLauncher ? launcher : undefined;
  game = taken ? taken.child : spawnGame(spec.sandbox?.cgroups ?? [], gameCommand(spec, join(dir, 'work')));
  launcher = undefined;
  // The launcher's output is already followed (read while the spare waited).
  if (!taken && game.stdout) readAtRate(game.stdout, outputRate, (chunk) => output.write(chunk));
  game.on('error', (error) => {
    // A game server that cannot be spawned (ENOENT, EACCES) emits no exit: end as a shell would, 127.
    output.write(Buffer.from(`supervisor: could not start the game server: ${error.message}\n`));
    if (game.pid === undefined) finish(127, null);
  });
  const launched = game;
  gameLaunchedAt = performance.now();
  // The launcher's start time is the game's (it execs it): read while the spare waited.
  const gameStart = taken && launcherStart !== undefined ? launcherStart : game.pid && startTimeOf(game.pid);
  save({ phase: state.restarts > 0 ? 'restarting' : 'starting', gamePid: game.pid ?? null, gameStart: gameStart || null });
  if (taken) sayGo(taken);
  waitUntilReady(launched);
  const ended = (code, signal) => drained(launched).then(() => onExit(launched, code, signal));
  if (game.exitCode !== null || game.signalCode !== null) ended(game.exitCode, game.signalCode);
  else game.on('exit', ended);
}

/** The output still in the pipe, read before the end is recorded (bounded: a leftover child may hold the pipe). */
function drained(launched) {
  return new Promise((resolve) => {
    if (!launched.stdout || launched.stdout.readableEnded) return resolve();
    launched.stdout.once('end', resolve);
    setTimeout(resolve, DRAIN_MS).unref();
  });
}

/**
 * What the game server of the current launch said on its SDK socket: `ready`, and its health
 * pings. With `healthSeconds`, one that said ready and then stops pinging for that long is hung:
 * killed (restarted when the session asked for it), as a crash.
 */
const liveness = sdkLiveness({
  healthSeconds: spec.sdk?.healthSeconds,
  live: () => !stopping && Boolean(game) && game.exitCode === null && game.signalCode === null,
  onMissed() {
    output.write(Buffer.from(`supervisor: no health ping for ${spec.sdk.healthSeconds} s; the game server is killed\n`));
    killGame();
  },
});

function markRunning() {
  // runningAt is history, kept to the end: a session that ran while the service was down
  // still gets its start, its end and its charge.
  if (!stopping) save({ phase: 'running', runningAt: state.runningAt ?? Date.now() });
}

/** The SDK, served once the game server is launched (its client retries a socket not there yet). */
let sdk;
const serveSessionSdk = () =>
  spec.sdk &&
  serveSdk({
    socketPath: spec.sdk.socketPath,
    bindDir: spec.sdk.bindDir,
    uid: spec.sandbox?.uid,
    allocation: spec.sdk.allocation,
    onReady() {
      if (!liveness.ready()) return;
      if (spec.sdk.readiness === 'sdk' && game && game.exitCode === null && state.phase !== 'running') markRunning();
    },
    onHealth: () => liveness.health(),
    onPlayers: recordConnected,
  });

/** The players the control API joined, written by the service into players.json: the SDK's allocation follows them. */
function followPlayers() {
  if (!sdk) return;
  const read = () => {
    try {
      const players = JSON.parse(readFileSync('players.json', 'utf8'));
      if (Array.isArray(players)) sdk.setPlayers(players.filter((p) => typeof p === 'string'));
    } catch {}
  };
  watch('.', (_event, file) => {
    if (file === 'players.json') read();
  }).unref();
  read();
}

/** The socket tables where the game server lives: inside its own network namespace when sandboxed. */
function netDirOf(launched) {
  if (!spec.sandbox) return '/proc/net';
  // Mostly the cheap look at newer pids; every 50th poll a full one, in case pids wrapped around.
  launched.polls = (launched.polls ?? 0) + 1;
  launched.netnsPid ??= childInOtherNetns(launched.pid, { newerOnly: launched.polls % 50 !== 0 });
  return launched.netnsPid === undefined ? undefined : `/proc/${launched.netnsPid}/net`;
}

/**
 * Readiness by ports, polled every READY_POLL_MS at first, then less and less often (see there).
 * The kernel says nothing when a port is bound that a supervisor could wait on cheaply: sock_diag's
 * netlink groups announce only sockets destroyed, inotify and fanotify do not see sockets, and an
 * eBPF program (the `sock:inet_sock_set_state` tracepoint, TCP only) is more than a shim should
 * load. The socket tables cost milliseconds of kernel
 * time to read (a starting game server would wait for them on a busy host), so they are read only
 * when the namespace's socket counts changed and are high enough for every declared port to be
 * bound (binding one raises them); and every FULL_CHECK_MS whatever the counts say (every
 * FULL_CHECK_MAX_MS once backed off), since a socket closed and another bound between two polls
 * leave them as they were.
 */
function waitUntilReady(launched) {
  liveness.relaunched();
  // Readiness by the SDK: the game server's own `POST /ready` says it (onReady above).
  if (spec.sdk?.readiness === 'sdk') return;
  const declared = { tcp: 0, udp: 0 };
  for (const port of spec.ports) declared[port.type]++;
  const types = ['tcp', 'udp'].filter((type) => declared[type] > 0);
  let countsAtRead;
  const launchedAt = performance.now();
  let readAt = launchedAt;
  const poll = () => {
    if (launched !== game || launched.exitCode !== null || launched.signalCode !== null) return;
    const netDir = netDirOf(launched);
    const counts = netDir && socketCounts(netDir);
    const worthReading = !counts || (JSON.stringify(counts) !== countsAtRead && types.every((type) => counts[type] >= declared[type]));
    const now = performance.now();
    const backedOff = now - launchedAt >= READY_FAST_MS;
    if (netDir && (worthReading || now - readAt >= (backedOff ? FULL_CHECK_MAX_MS : FULL_CHECK_MS))) {
      countsAtRead = JSON.stringify(counts);
      readAt = performance.now();
      const bound = boundPorts(netDir, types) ?? { tcp: new Set(), udp: new Set() };
      if (spec.ports.every((p) => bound[p.type].has(p.host))) {
        markRunning();
        return;
      }
    }
    setTimeout(poll, backedOff ? Math.min(READY_POLL_MAX_MS, Math.max(READY_POLL_MS, (now - launchedAt) * READY_LATENESS)) : READY_POLL_MS);
  };
  poll();
}

function onExit(launched, code, signal) {
  if (launched !== game) return;
  clearTimeout(killTimer);
  // Killed here whole (pasta too): reported as the sandbox's kill is, 137.
  if (launched.killedHere && signal === 'SIGKILL') [code, signal] = [137, null];
  const crashed = code !== 0 || signal !== null;
  if (!stopping && !overLimit && spec.restart && crashed) {
    const delay = backoff.delayAfterCrash(performance.now() - gameLaunchedAt);
    state.restarts++;
    save({ phase: 'restarting', gamePid: null, gameStart: null });
    relaunch = { timer: setTimeout(() => ((relaunch = undefined), stopping ? finish(code, signal) : launch()), delay), code, signal };
    return;
  }
  finish(code, signal);
}

async function finish(code, signal) {
  sdk?.close();
  await releaseCgroups(spec.sandbox?.cgroups ?? []);
  save({ phase: 'ended', exitCode: code, signal, stopped: stopping });
  exitOnceSaved();
}

/** The session's cgroups, removed once the last process in them is gone (a few tries: dying takes a moment). */
async function releaseCgroups(cgroups) {
  for (let attempt = 0; attempt < 20 && !removeCgroups(cgroups); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The work directory's size: the files under it plus those the game tree unlinked but keeps open
 * (still on the disk). Checked every WORK_DIR_CHECK_MS while a check is cheap (every
 * WORK_DIR_CHECK_EVERY_SCAN_COST times what the last one took, at most WORK_DIR_CHECK_MAX_MS):
 * what a game server writes past the limit is what it writes in that time (one file alone stops
 * at the limit: its file-size rlimit is no larger). Its entries are limited too (`workDirEntries`):
 * an empty file costs no bytes but an inode of the data directory's filesystem. Past either limit
 * the game server is killed (exit 137).
 */
function watchWorkDir() {
  if (!spec.workDirBytes && !spec.workDirEntries) return;
  const maxEntries = Math.min(WORK_DIR_MAX_ENTRIES, spec.workDirEntries ?? Infinity);
  const work = join(dir, 'work');
  const cgroups = spec.sandbox?.cgroups ?? [];
  const memory = cgroups.find((cgroup) => cgroup.includes('/memory/'));
  // Reading every descriptor of the tree costs ~10x the walk of a small work directory: done when
  // the tree charged pages (it writes) since the last time, and at least every WORK_DIR_CHECK_MAX_MS
  // (space reserved without writing, fallocate, is seen then).
  let deleted = { bytes: 0, pages: undefined, at: -Infinity };
  const deletedBytes = (now) => {
    const pages = memory && chargedPages(memory);
    const written = pages === undefined || deleted.pages === undefined || pages - deleted.pages >= WORK_DIR_WRITTEN_PAGES;
    if (written || now - deleted.at >= WORK_DIR_CHECK_MAX_MS) deleted = { bytes: openDeletedBytes(cgroups[0], work), pages, at: now };
    return deleted.bytes;
  };
  const check = () => {
    const began = performance.now();
    const usage = directoryUsage(work, maxEntries);
    if (usage.entries > maxEntries) return overWorkDirLimit(`${maxEntries} files and directories`);
    const bytes = usage.bytes + (cgroups.length > 0 ? deletedBytes(began) : 0);
    if (bytes > (spec.workDirBytes ?? Infinity)) return overWorkDirLimit(`${spec.workDirBytes} bytes`);
    const cost = performance.now() - began;
    setTimeout(check, Math.min(WORK_DIR_CHECK_MAX_MS, Math.max(WORK_DIR_CHECK_MS, cost * WORK_DIR_CHECK_EVERY_SCAN_COST))).unref();
  };
  setTimeout(check, WORK_DIR_CHECK_MS).unref();
}

function overWorkDirLimit(limit) {
  overLimit = true;
  output.write(Buffer.from(`supervisor: the work directory passed its limit of ${limit}; the game server is stopped\n`));
  if (game) killGame();
}

/**
 * The open files of all the game server's processes (those of its cgroup in its sandbox's pid
 * namespace; pasta, which holds its players' connections, is bounded by its own rlimit instead:
 * game-tree.mjs openDescriptors), against `sessionOpenFiles`: past it the game server is killed
 * (exit 137), as past its work directory's limit. What it opens past the cap meanwhile is what it
 * opens in one interval, at most pids x openFiles in all. Sandboxed only (an unsandboxed game
 * server is trusted code and has no cgroup of its own).
 */
function watchOpenFiles() {
  const cgroup = spec.sandbox?.cgroups?.[0];
  const max = spec.sessionOpenFiles;
  if (!cgroup || !max) return;
  const inSandbox = new Map();
  const check = () => {
    if (overLimit) return;
    const began = performance.now();
    if (openDescriptors(cgroup, max, inSandbox) > max) return overOpenFilesLimit(max);
    const cost = performance.now() - began;
    setTimeout(check, Math.min(OPEN_FILES_CHECK_MAX_MS, Math.max(OPEN_FILES_CHECK_MS, cost * OPEN_FILES_CHECK_EVERY_COST))).unref();
  };
  setTimeout(check, OPEN_FILES_CHECK_MS).unref();
}

function overOpenFilesLimit(max) {
  overLimit = true;
  output.write(Buffer.from(`supervisor: the game server's processes passed their limit of ${max} open files together (sessionOpenFiles); the game server is stopped\n`));
  if (game) killGame();
}

process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  if (!game || game.exitCode !== null || game.signalCode !== null) {
    // Between restarts nothing runs: it ends now, as the crash left it (the wait before the
    // relaunch may be minutes: restart-backoff.mjs).
    if (relaunch) {
      clearTimeout(relaunch.timer);
      const { code, signal } = relaunch;
      relaunch = undefined;
      finish(code, signal);
    } else if (state.phase !== 'restarting') finish(null, null);
    return;
  }
  terminateGame();
  killTimer = setTimeout(killEverything, spec.graceMs);
});
// Detached from the service's terminal; a hang-up or Ctrl+C there must not end sessions.
process.on('SIGHUP', () => {});
process.on('SIGINT', () => {});

// The game server first: the rest is set up while it loads.
launch();
const sdkServing = serveSessionSdk();
watchWorkDir();
watchOpenFiles();
reserveStateSpace();
sdk = await sdkServing;
followPlayers();
// A warm game server waits for its session: the service hands it over (warm-handoff.mjs).
if (spec.sdk?.warm) {
  await serveHandoff({
    socketPath: 'handoff.sock', // process-runtime.ts's HANDOFF_SOCKET
    onAllocation({ id, labels, players, restart }) {
      spec.restart = restart === true;
      // Its SDK answers with the session from now on; the game server's waiting long-poll is
      // answered once the handoff's `ok` is out (sdk-server.mjs: allocate).
      return sdk.allocate({ ...spec.sdk.warm, id, labels, players });
    },
  });
}
