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
import { closeSync, openSync } from 'node:fs';

/** Quoted for the shell: nothing in it is expanded. */
const quoted = (word) => `'${String(word).replaceAll("'", "'\\''")}'`;

const joinCommands = (cgroups) => ['exec 2>&1', ...cgroups.map((dir) => `echo $$ > ${quoted(`${dir}/cgroup.procs`)} || exit 126`)];

/**
 * Names the shell itself gives a meaning to, or checks the value of (OPTIND): it could not pass
 * them on as given. A session with such a name, or one that is no shell name at all (`game.mode`),
 * is started from Node instead (spawnGame).
 */
const SHELL_OWN = new Set(['IFS', 'OPTIND', 'PPID', 'LINENO', 'PS1', 'PS2', 'PS4', 'PWD', 'OLDPWD', 'MAIL', 'MAILPATH', 'MAILCHECK', 'HISTSIZE', 'ENV']);

/** Whether the launcher's shell can give the game exactly this environment (execCommand). */
export const exportable = (env) => Object.keys(env).every((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !SHELL_OWN.has(name));

/**
 * What runs a session's game server: in its work directory, with exactly its environment, in its
 * sandbox when it has one (whose bubblewrap reads its seccomp filter from `seccomp.file`, opened
 * on `seccomp.fd` by whatever execs the sandbox).
 */
export function gameCommand(spec, workDir) {
  if (!spec.sandbox) return { cwd: workDir, env: spec.env, argv: [spec.file, ...spec.args] };
  return { cwd: workDir, env: spec.env, argv: [...spec.sandbox.argv, spec.file, ...spec.args], seccomp: spec.sandbox.seccomp };
}

/**
 * The launcher's one command: the game, exec'd (its stdin not the service's pipe) with exactly its
 * environment. The values are exported by the shell, never put on a command line (any user can
 * read /proc/<pid>/cmdline; only the process's own user its environ); the shell, started with an
 * empty environment, exports nothing of its own but the PWD and OLDPWD that `cd` sets.
 */
export function execCommand({ cwd, env, argv, seccomp }) {
  if (!exportable(env)) throw new Error('an environment the launcher cannot pass on: start it with spawnGame');
  return [
    `cd ${quoted(cwd)} || exit 126`,
    'unset PWD OLDPWD',
    ...Object.entries(env).map(([name, value]) => `export ${name}=${quoted(value)}`),
    `exec ${argv.map(quoted).join(' ')} ${seccomp ? `${seccomp.fd}<${quoted(seccomp.file)} ` : ''}</dev/null`,
    '',
  ].join('\n');
}

/** The launcher's fd on which its supervisor says go (a pipe from the supervisor; never the game's). */
const GO_FD = 3;

const spawnShell = (options) =>
  spawn('/bin/sh', options.args ?? [], {
    cwd: options.cwd,
    env: options.env,
    stdio: options.stdio ?? [options.stdin ?? 'ignore', 'pipe', 'ignore', ...(options.go ? ['pipe'] : [])],
    // Its own process group, so a stop reaches everything the game server started.
    detached: true,
  });

/** `stdio` with the seccomp filter file open on its descriptor (closed here once `start` spawned). */
export function withSeccomp(seccomp, stdio, start) {
  if (!seccomp) return start(stdio);
  const fd = openSync(seccomp.file, 'r');
  try {
    return start([...stdio, ...Array(seccomp.fd - stdio.length).fill('ignore'), fd]);
  } finally {
    closeSync(fd);
  }
}

/**
 * A launcher forked ahead of need, in `cgroups`, reading its commands from `commands` (a file
 * descriptor: the service's pipe). `joined` says whether it is in all of them (it ends itself
 * when it cannot join one); it then waits for its supervisor's go (sayGo), and then for its
 * command. Anything but go on that pipe (its end: the supervisor died or dismissed it) ends it.
 */
export function forkLauncher(cgroups, commands) {
  const awaitGo = `read go <&${GO_FD} && [ "$go" = go ] || exit 125`;
  // Its command (read whole from stdin, a socket: `. /dev/stdin` cannot open one) runs in this
  // same shell: no second shell is exec'd between the go and the game's own exec (~1 ms here).
  const readCommand = 'launch=; while IFS= read -r line; do launch="$launch$line\n"; done';
  const script = `${joinCommands(cgroups).join('; ')}; echo joined; ${awaitGo}; exec ${GO_FD}<&-; ${readCommand}; eval "$launch"`;
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

/**
 * Perl's part for an environment the shell cannot pass on: stderr with stdout, join the cgroups
 * (126 if one cannot be joined, as the shell), take the environment from stdin as NUL-ended name
 * and value pairs, give the game /dev/null as its stdin, exec it (127 if that fails, as the shell).
 */
const EXACT_ENV_SCRIPT = [
  'open STDERR, ">&STDOUT" or exit 126;',
  'my $n = shift @ARGV;',
  'for my $dir (splice @ARGV, 0, $n) { open my $f, ">", "$dir/cgroup.procs" or exit 126; print $f $$; close $f or exit 126 }',
  'my $pairs = do { local $/; <STDIN> };',
  'open STDIN, "<", "/dev/null" or exit 126;',
  'my @pairs = split /\\0/, $pairs, -1; pop @pairs;',
  '%ENV = @pairs;',
  'exec { $ARGV[0] } @ARGV; exit 127;',
].join(' ');

/**
 * A game server started from a new process that joins `cgroups` first (restarts, and starts
 * without a launcher). A shell does it when it can export every name; names it cannot
 * (`game.mode`, `my-secret`: dash drops them when it executes a program) need perl (Debian's
 * perl-base is Essential), which runs with an empty environment of its own, so no session name
 * steers it, and reads the session's from a pipe: never a command line.
 */
export function spawnGame(cgroups, { cwd, env, argv, seccomp }) {
  // As Node's spawn refuses it: a NUL cannot be in an environment, and perl's pairs are NUL-ended
  // (a value holding one would smuggle in a name the service refuses, such as LD_PRELOAD).
  if (Object.entries(env).some(([name, value]) => name.includes('\0') || value.includes('\0'))) {
    throw new TypeError('a game server\'s environment cannot hold a NUL byte');
  }
  if (exportable(env)) {
    // Exactly its environment: the PWD dash sets is none of the session's (PWD is a name it cannot export).
    const script = `${joinCommands(cgroups).join('; ')}; unset PWD OLDPWD; exec "$@"`;
    return withSeccomp(seccomp, ['ignore', 'pipe', 'ignore'], (stdio) => spawnShell({ args: ['-c', script, 'sh', ...argv], cwd, env, stdio }));
  }
  const child = withSeccomp(seccomp, ['pipe', 'pipe', 'ignore'], (stdio) =>
    spawn('/usr/bin/perl', ['-e', EXACT_ENV_SCRIPT, String(cgroups.length), ...cgroups, ...argv], { cwd, env: {}, stdio, detached: true }),
  );
  // A game that ends before reading its environment closes the pipe: its exit says why.
  child.stdin.on('error', () => {});
  child.stdin.end(Object.entries(env).map(([name, value]) => `${name}\0${value}\0`).join(''));
  return child;
}
