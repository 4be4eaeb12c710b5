/**
 * Whether a host port is held by anyone, found out by binding it for a moment (TCP listening, UDP
 * bound) on the address a session's forwarder will bind: what that bind would meet, at the
 * cost of a few system calls instead of a walk of the kernel's socket tables.
 */
import { createSocket } from 'node:dgram';
import { createServer, isIP } from 'node:net';

/** The ports of `ports` that something on this host holds on `host` (any address when it is not an IP address). */
export async function heldAmong(host: string, ports: readonly number[]): Promise<Set<number>> {
  const address = isIP(host) ? host : undefined;
  const held = await Promise.all(ports.map(async (port) => (await Promise.all([tcpHeld(port, address), udpHeld(port, address)])).includes(true)));
  return new Set(ports.filter((_, i) => held[i]));
}

/** Only EADDRINUSE says held; anything else (an address not on this host) cannot be told by binding. */
const inUse = (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE';

function tcpHeld(port: number, host: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(inUse(error)));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

function udpHeld(port: number, address: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket(address && isIP(address) === 6 ? 'udp6' : 'udp4');
    socket.once('error', (error) => {
      socket.close();
      resolve(inUse(error));
    });
    socket.bind({ port, address, exclusive: true }, () => socket.close(() => resolve(false)));
  });
}
