#!/usr/bin/env node
// The per-session supervisor (a shim, like containerd's): it owns one game server, outlives the
// service, and records what happens in state.json in the session directory, which the service
// watches. Plain JavaScript so it starts fast without a TypeScript loader.
//
// It is started ahead of need (so Node's start-up is off a session's critical path) and reads
// one JSON document on stdin: { dir, spec } (see process-runtime.ts). The game server gets
// exactly spec.env. Stdin closing with nothing on it (the service went away) ends it.
//
// state.json phases: starting -> running (all declared ports bound) -> [restarting -> running]*
// -> ended { exitCode, signal, at, stopped }. Written atomically (temp file + rename).
import { spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { boundPorts } from '../socket-table.mjs';

let input = '';
for await (const chunk of process.stdin) input += chunk;
if (input.trim() === '') process.exit(0);
const { dir, spec } = JSON.parse(input);
// Its own stdout and stderr are not kept: anything unexpected goes to the session directory.
process.on('uncaughtException', (error) => {
  writeFileSync(join(dir, 'supervisor.log'), `${new Date().toISOString()} ${error.stack ?? error}\n`, { flag: 'a' });
  process.exit(70);
});

const READY_POLL_MS = 5;
const RESTART_BACKOFF_MS = [250, 500, 1000, 2000, 5000];

const startTimeOf = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
};

const state = {
  supervisorPid: process.pid,
  supervisorStart: startTimeOf(process.pid),
  gamePid: null,
  gameStart: null,
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
  try {
    const temp = join(dir, 'state.json.tmp');
    writeFileSync(temp, JSON.stringify(state));
    renameSync(temp, join(dir, 'state.json'));
  } catch {
    saveRetry = setTimeout(persist, SAVE_RETRY_MS);
  }
}

function exitOnceSaved() {
  if (saveRetry === undefined) process.exit(0);
  setTimeout(exitOnceSaved, SAVE_RETRY_MS);
}

/**
 * Signal the game server's process group. bubblewrap neither handles nor forwards SIGTERM, and
 * its death would SIGKILL the sandbox at once; so a graceful signal goes to the sandboxed
 * processes of the group and not to bwrap itself, which then exits with the game's status.
 */
function signalGame(signal) {
  if (!spec.isolate || signal === 'SIGKILL') {
    try {
      process.kill(-game.pid, signal);
    } catch {}
    return;
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp === game.pid && comm !== 'bwrap') process.kill(Number(entry), signal);
    } catch {}
  }
}

const output = openSync(join(dir, 'output.log'), 'a');
let game;
let stopping = false;
let killTimer;

function launch() {
  const [file, args] = spec.isolate ? [spec.isolate[0], [...spec.isolate.slice(1), spec.file, ...spec.args]] : [spec.file, spec.args];
  game = spawn(file, args, {
    cwd: join(dir, 'work'),
    env: spec.env,
    stdio: ['ignore', output, output],
    // Its own process group, so a stop reaches everything the game server started.
    detached: true,
  });
  game.on('error', (error) => {
    // A game server that cannot be spawned (ENOENT, EACCES) emits no exit: end as a shell would, 127.
    writeFileSync(join(dir, 'output.log'), `supervisor: could not start the game server: ${error.message}\n`, { flag: 'a' });
    if (game.pid === undefined) finish(127, null);
  });
  const launched = game;
  save({ phase: state.restarts > 0 ? 'restarting' : 'starting', gamePid: game.pid ?? null, gameStart: game.pid ? startTimeOf(game.pid) : null });
  waitUntilReady(launched);
  game.on('exit', (code, signal) => onExit(launched, code, signal));
}

function waitUntilReady(launched) {
  const poll = () => {
    if (launched !== game || launched.exitCode !== null || launched.signalCode !== null) return;
    const bound = boundPorts('/proc/net') ?? { tcp: new Set(), udp: new Set() };
    if (spec.ports.every((p) => bound[p.type].has(p.host))) {
      // runningAt is history, kept to the end: a session that ran while the service was down
      // still gets its start, its end and its charge.
      if (!stopping) save({ phase: 'running', runningAt: state.runningAt ?? Date.now() });
      return;
    }
    setTimeout(poll, READY_POLL_MS);
  };
  poll();
}

function onExit(launched, code, signal) {
  if (launched !== game) return;
  clearTimeout(killTimer);
  const crashed = code !== 0 || signal !== null;
  if (!stopping && spec.restart && crashed) {
    const delay = RESTART_BACKOFF_MS[Math.min(state.restarts, RESTART_BACKOFF_MS.length - 1)];
    state.restarts++;
    save({ phase: 'restarting', gamePid: null, gameStart: null });
    setTimeout(() => (stopping ? finish(code, signal) : launch()), delay);
    return;
  }
  finish(code, signal);
}

function finish(code, signal) {
  save({ phase: 'ended', exitCode: code, signal, stopped: stopping });
  exitOnceSaved();
}

process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  if (!game || game.exitCode !== null || game.signalCode !== null) {
    // Between restarts: nothing runs; the pending relaunch sees `stopping` and finishes.
    if (state.phase !== 'restarting') finish(null, null);
    return;
  }
  signalGame('SIGTERM');
  killTimer = setTimeout(() => signalGame('SIGKILL'), spec.graceMs);
});
// Detached from the service's terminal; a hang-up or Ctrl+C there must not end sessions.
process.on('SIGHUP', () => {});
process.on('SIGINT', () => {});

launch();
