// The small process the service spawns its spare supervisors from (spare-spawner.ts). Forking
// copies the forking process's page tables, so a spawn from the ~250 MB service held its event
// loop 5-16 ms (4-32 ms at load 11-15), during whatever requests came then; from this ~45 MB
// process the fork takes ~1.6 ms, and none of the service's. It hands the service each spare's
// stdin and launcher pipe over the IPC channel, reads the spare's one line on stdout itself (a
// pipe handed over unread could lose what was read into it meanwhile), and ends when the service's
// end of its stdin closes (or the channel does).
// Plain JavaScript so it starts fast without a TypeScript loader.
import { spawn } from 'node:child_process';
import { processStartTime } from './proc-start.mjs';

/** Replies to one request; a channel already closed (the service went away) is not an error here. */
const reply = (message, handle) => process.connected && process.send(message, handle, () => {});

process.on('message', ({ id, file, args, env }) => {
  let child;
  try {
    child = spawn(file, args, {
      detached: true,
      // fd 3: the pipe its launcher reads the game's command from (launcher.mjs).
      stdio: ['pipe', 'pipe', 'ignore', 'pipe'],
      env,
    });
  } catch (error) {
    reply({ id, error: error.message });
    return;
  }
  // A spawn that fails (out of file descriptors or processes) leaves it without a pid and says so in an 'error' event.
  child.on('error', () => {});
  if (child.pid === undefined) {
    reply({ id, error: 'the spare supervisor could not be spawned' });
    return;
  }
  reply({ id, pid: child.pid, start: processStartTime(child.pid), pipe: 'stdin' }, child.stdin);
  reply({ id, pipe: 'launcher' }, child.stdio[3]);
  // Its first line says whether its launcher joined the spare cgroups, and the launcher's pid; read
  // here, with the launcher's start time read at once (it cannot have ended yet unless its spare did).
  let said = '';
  const settle = () => {
    if (said === undefined) return;
    const told = /^(joined|not joined) (\d+)\n/.exec(said);
    reply({ id, said: told?.[0] ?? '', launcherStart: told ? processStartTime(Number(told[2])) : undefined });
    said = undefined;
    child.stdout.destroy();
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    if (said === undefined) return;
    said += chunk;
    if (said.includes('\n')) settle();
  });
  child.stdout.once('close', settle);
});

// The service is gone (or closed its runtime): its spares end by themselves once their stdin closes.
// Its end of this process's stdin closes however it ends (kill -9 included) and when it closes the
// runtime. The channel's 'disconnect' alone is not enough: Node holds it back while a handle sent
// here waits for the service's acknowledgement, so a service killed (or closing) between a spare's
// handoff and its acknowledgement left this process running for good, with that spare waiting.
const leave = () => process.exit(0);
process.stdin.once('end', leave).once('error', leave).resume();
process.on('disconnect', leave);
