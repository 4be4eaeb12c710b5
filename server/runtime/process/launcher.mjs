// The process a game server is started from. A shell first joins the session's cgroups, so
// everything the game server starts is counted from its first instruction, and sends stderr with
// stdout (one pipe keeps their order); then it execs the game (the sandbox's command line).
//
// A spare supervisor forks one ahead of need (a "launcher"), in the spare cgroups the service made
// for it: joining a cgroup (v1) waits for an RCU grace period, about 10 ms, and forking Node a few
// more. The launcher then reads commands from a pipe the service holds (the supervisor passes it
// on as its stdin). At a start the service renames the spare cgroups to the session's, writes its
// limits into them, and writes the launcher the one command that execs the game, before it hands
// the supervisor its session: the game's start waits for no fork. The launcher runs that command
// only once its supervisor has taken the session and says go, over a pipe only the supervisor
// holds: a supervisor that died (before the start, or while reading its session) closes it, the
// launcher reads the end instead and exits, so no game server ever runs without its supervisor.
// Plain JavaScript: the supervisor uses it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Quoted for the shell: nothing in it is expanded. */
const quoted = (word) => `'${String(word).replaceAll("'", "'\\''")}'`;

const joinCommands = (cgroups) => ['exec 2>&1', ...cgroups.map((dir) => `echo $$ > ${quoted(`${dir}/cgroup.procs`)} || exit 126`)];

/** The program that replaces the environment with exactly the game's (the shell itself would export PWD). */
const ENV = ['/usr/bin/env', '/bin/env'].find((file) => existsSync(file)) ?? '/usr/bin/env';

/** What runs a session's game server: in its work directory, with exactly its environment, in its sandbox when it has one. */
export function gameCommand(spec, workDir) {
  return { cwd: workDir, env: spec.env, argv: spec.sandbox ? [...spec.sandbox.argv, spec.file, ...spec.args] : [spec.file, ...spec.args] };
}

/** The launcher's one command: the game, exec'd (its stdin not the service's pipe). */
export const execCommand = ({ cwd, env, argv }) =>
  `cd ${quoted(cwd)} || exit 126\nexec ${[ENV, '-i', ...Object.entries(env).map(([name, value]) => `${name}=${value}`), ...argv].map(quoted).join(' ')} </dev/null\n`;

/** The launcher's fd on which its supervisor says go (a pipe from the supervisor; never the game's). */
const GO_FD = 3;

const spawnShell = (options) =>
  spawn('/bin/sh', options.args ?? [], {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'ignore', ...(options.go ? ['pipe'] : [])],
    // Its own process group, so a stop reaches everything the game server started.
    detached: true,
  });

/**
 * A launcher forked ahead of need, in `cgroups`, reading its commands from `commands` (a file
 * descriptor: the service's pipe). `joined` says whether it is in all of them (it ends itself
 * when it cannot join one); it then waits for its supervisor's go (sayGo), and then for its
 * command. Anything but go on that pipe (its end: the supervisor died or dismissed it) ends it.
 */
export function forkLauncher(cgroups, commands) {
  const awaitGo = `read go <&${GO_FD} && [ "$go" = go ] || exit 125`;
  const script = `${joinCommands(cgroups).join('; ')}; echo joined; ${awaitGo}; exec /bin/sh -s ${GO_FD}<&-`;
  const child = spawnShell({ args: ['-c', script], cwd: '/', env: {}, stdin: commands, go: true });
  const joined = new Promise((resolve) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      if (!seen.includes('joined\n')) return;
      child.stdout.off('data', onData);
      // The game's output is read once it is launched (the supervisor resumes it).
      child.stdout.pause();
      resolve(true);
    };
    child.stdout.on('data', onData);
    child.once('exit', () => resolve(false));
    child.once('error', () => resolve(false));
  });
  return { child, joined };
}

/** The supervisor has taken its session: the launcher may run the game's command. */
export function sayGo(launcher) {
  const go = launcher.child.stdio[GO_FD];
  // A launcher gone meanwhile shows as the game's exit.
  go.on('error', () => {});
  go.end('go\n');
}

/** A launcher that will not serve: ended. */
export function dismiss(launcher) {
  if (launcher && launcher.child.exitCode === null && launcher.child.signalCode === null) launcher.child.kill('SIGKILL');
}

/** A game server started from a new shell that joins `cgroups` first (restarts, and starts without a launcher). */
export function spawnGame(cgroups, { cwd, env, argv }) {
  const script = `${joinCommands(cgroups).join('; ')}; exec "$@"`;
  return spawnShell({ args: ['-c', script, 'sh', ...argv], cwd, env });
}
