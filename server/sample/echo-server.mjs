#!/usr/bin/env node
// The sample game server image `echo`: answers every UDP datagram and every TCP line with its
// session id, so a client can check it reached the right session. Ports and identity come from
// the environment the runtime sets: SESSION_ID, SESSION_HOST, PORT_GAME (udp), PORT_QUERY (tcp).
// On SIGTERM it writes summary.json into its working directory (an artifact) and exits 0.
// ECHO_BIND overrides the address it binds (0.0.0.0 in a container: the engine's published
// ports forward to the container's own address). ECHO_ALLOCATE_MB allocates (and touches) that
// much memory after start, to test memory limits. ECHO_CRASH_AFTER_MS crashes it (exit 3).
// ECHO_BIND_AFTER_MS waits that long before binding its ports (a slow start).
//
// With the game-server SDK (SESSION_HOST_SDK set, server/sample/sdk-client.mjs) it says `ready`
// once its ports are bound, takes its session id from its allocation (a warm server waits for
// one), pings its health, and a TCP line `connect <player>` or `disconnect <player>` is reported
// to the SDK before it is echoed. ECHO_SDK=off leaves the SDK unused, ECHO_SDK=no-health says
// ready but never pings (to test readiness and health deadlines).
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { connectSdk } from './sdk-client.mjs';

const sdk = process.env.ECHO_SDK === 'off' ? undefined : connectSdk();
let sessionId = process.env.SESSION_ID ?? 'unknown';
const host = process.env.SESSION_HOST ?? '127.0.0.1';
const udpPort = Number(process.env.PORT_GAME ?? 7777);
const tcpPort = Number(process.env.PORT_QUERY ?? 7778);
const stats = { session: sessionId, datagrams: 0, lines: 0, started: new Date().toISOString() };

const reply = (text) => `echo ${sessionId} ${text}`;

const udp = createSocket('udp4');
udp.on('message', (message, from) => {
  stats.datagrams++;
  udp.send(reply(message.toString('utf8').trim()), from.port, from.address);
});

const tcp = createServer((socket) => {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline).replace(/\r$/, '');
      buffered = buffered.slice(newline + 1);
      stats.lines++;
      const [verb, player] = line.split(' ');
      const reported =
        sdk && player && (verb === 'connect' || verb === 'disconnect')
          ? (verb === 'connect' ? sdk.connectPlayer(player) : sdk.disconnectPlayer(player)).then(() => '', (error) => ` (${error.message})`)
          : Promise.resolve('');
      reported.then((note) => socket.writable && socket.write(reply(line) + note + '\n'));
    }
  });
  socket.on('error', () => socket.destroy());
});

const bind = process.env.ECHO_BIND || host;
// A port it cannot bind (taken by another process) ends it with a non-zero status and says why,
// so the session ends `crashed` with the reason in its log, not `exited` with nothing.
const failOn = (protocol, port) => (error) => {
  const why = error.code === 'EADDRINUSE' ? 'the port is already in use by another process' : error.message;
  console.error(`echo server for session ${sessionId}: cannot use ${protocol} ${bind}:${port}: ${why}`);
  process.exit(2);
};
udp.on('error', failOn('udp', udpPort));
tcp.on('error', failOn('tcp', tcpPort));
setTimeout(() => {
  udp.bind(udpPort, bind, () => {
    tcp.listen(tcpPort, bind, () => {
      console.log(`echo server for session ${sessionId} on udp ${bind}:${udpPort}, tcp ${bind}:${tcpPort}`);
      if (sdk) useSdk().catch((error) => console.error(`echo server: SDK: ${error.message}`));
    });
  });
}, Number(process.env.ECHO_BIND_AFTER_MS ?? 0));

/** Ready (the ports are bound), then the session from the allocation (a warm server waits for it), then health pings. */
async function useSdk() {
  await sdk.ready();
  let allocation = await sdk.allocation();
  while (allocation.state !== 'allocated') allocation = await sdk.allocation({ waitSeconds: 60 });
  sessionId = allocation.session.id;
  stats.session = sessionId;
  // What it learned, as an artifact: tests check a warm server knew its session in time.
  writeFileSync('allocation.json', JSON.stringify(allocation.session));
  console.log(`echo server: allocated to session ${sessionId} (labels ${JSON.stringify(allocation.session.labels)})`);
  if (process.env.ECHO_SDK !== 'no-health') sdk.keepHealthy(1000);
}

const allocateMb = Number(process.env.ECHO_ALLOCATE_MB ?? 0);
if (allocateMb > 0) {
  const blocks = [];
  setTimeout(() => {
    console.log(`echo server allocating ${allocateMb} MB (ECHO_ALLOCATE_MB)`);
    for (let i = 0; i < allocateMb; i++) blocks.push(Buffer.alloc(1024 * 1024, 1));
    console.log(`echo server holds ${blocks.length} MB`);
  }, 200);
}

const crashAfter = Number(process.env.ECHO_CRASH_AFTER_MS ?? 0);
if (crashAfter > 0) {
  setTimeout(() => {
    console.error('echo server crashing on purpose (ECHO_CRASH_AFTER_MS)');
    process.exit(3);
  }, crashAfter);
}

process.on('SIGTERM', () => {
  console.log(`echo server for session ${sessionId} stopping after ${stats.datagrams} datagrams, ${stats.lines} lines`);
  writeFileSync('summary.json', JSON.stringify({ ...stats, stopped: new Date().toISOString() }, null, 2));
  udp.close();
  tcp.close();
  process.exit(0);
});
