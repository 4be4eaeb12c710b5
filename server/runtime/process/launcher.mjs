// The process a game server is started from. A shell first joins the session's cgroups, so
// everything the game server starts is counted from its first instruction, and sends stderr with
// stdout (one pipe keeps their order); then it execs the game (the sandbox's command line).
//
// A spare supervisor forks one ahead of need (a "launcher"), in the spare cgroups the service made
// for it: joining a cgroup (v1) waits for an RCU grace period, about 10 ms, and forking Node a few
// more. The service renames those cgroups to the session's and writes its limits into them; the
// launcher, a shell reading commands on its stdin, is then told the one command that execs the game.
// Plain JavaScript: the supervisor uses it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Quoted for the shell: nothing in it is expanded. */
const quoted = (word) => `'${String(word).replaceAll("'", "'\\''")}'`;

const joinCommands = (cgroups) => ['exec 2>&1', ...cgroups.map((dir) => `echo $$ > ${quoted(`${dir}/cgroup.procs`)} || exit 126`)];

/** The program that replaces the environment with exactly the game's (the shell itself would export PWD). */
const ENV = ['/usr/bin/env', '/bin/env'].find((file) => existsSync(file)) ?? '/usr/bin/env';

const execCommand = ({ cwd, env, argv }) =>
  `cd ${quoted(cwd)} || exit 126\nexec ${[ENV, '-i', ...Object.entries(env).map(([name, value]) => `${name}=${value}`), ...argv].map(quoted).join(' ')} </dev/null\n`;

const spawnShell = (options) =>
  spawn('/bin/sh', options.args ?? [], {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'ignore'],
    // Its own process group, so a stop reaches everything the game server started.
    detached: true,
  });

/**
 * A launcher forked ahead of need, in `cgroups`. `joined` says whether it is in all of them (it
 * ends itself when it cannot join one); it then waits for launchWith().
 */
export function forkLauncher(cgroups) {
  const child = spawnShell({ cwd: '/', env: {}, stdin: 'pipe' });
  child.stdin.on('error', () => {});
  child.stdin.write(`${joinCommands(cgroups).join('\n')}\necho joined\n`);
  const joined = new Promise((resolve) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      if (!seen.includes('joined\n')) return;
      child.stdout.off('data', onData);
      // The game's output is read once it is launched (launchWith's caller resumes it).
      child.stdout.pause();
      resolve(true);
    };
    child.stdout.on('data', onData);
    child.once('exit', () => resolve(false));
    child.once('error', () => resolve(false));
  });
  return { child, joined };
}

/** The launcher execs the game: it keeps its pid (the game's process group) and its cgroups. */
export function launchWith(launcher, game) {
  launcher.child.stdin.end(execCommand(game));
  return launcher.child;
}

/** A launcher no longer needed: its stdin closed, it ends. */
export function dismiss(launcher) {
  launcher?.child.stdin.end();
}

/** A game server started from a new shell that joins `cgroups` first (restarts, and starts without a launcher). */
export function spawnGame(cgroups, { cwd, env, argv }) {
  const script = `${joinCommands(cgroups).join('; ')}; exec "$@"`;
  return spawnShell({ args: ['-c', script, 'sh', ...argv], cwd, env });
}
