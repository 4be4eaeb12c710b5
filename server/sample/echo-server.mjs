#!/usr/bin/env node
// The sample game server image `echo`: answers every UDP datagram and every TCP line with its
// session id, so a client can check it reached the right session. Ports and identity come from
// the environment the runtime sets: SESSION_ID, SESSION_HOST, PORT_GAME (udp), PORT_QUERY (tcp).
// On SIGTERM it writes summary.json into its working directory (an artifact) and exits 0.
// ECHO_BIND overrides the address it binds (0.0.0.0 in a container: the engine's published
// ports forward to the container's own address). ECHO_ALLOCATE_MB allocates (and touches) that
// much memory after start, to test memory limits. ECHO_CRASH_AFTER_MS crashes it (exit 3).
// ECHO_BIND_AFTER_MS waits that long before binding its ports (a slow start).
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

const sessionId = process.env.SESSION_ID ?? 'unknown';
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
      socket.write(reply(line) + '\n');
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
    });
  });
}, Number(process.env.ECHO_BIND_AFTER_MS ?? 0));

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
