/**
 * `session-host sessions probe <id>`: sends one UDP datagram or TCP line to each of a session's
 * host ports and prints what comes back, so a walk-through needs no `nc`.
 */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';

export interface ProbeResult {
  port: number;
  type: 'udp' | 'tcp';
  name?: string;
  /** The first answer (one line or one datagram), or undefined when none came in time. */
  answer?: string;
  error?: string;
}

function udp(host: string, port: number, message: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no datagram back within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('message', (data) => {
      clearTimeout(timer);
      socket.close();
      resolve(data.toString('utf8').trimEnd());
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      socket.close();
      reject(error);
    });
    socket.send(message, port, host);
  });
}

/**
 * The most of a TCP answer kept: a line, not whatever the game sends. A game sending without a
 * newline grew the CLI's memory for as long as it sent.
 */
export const MAX_TCP_ANSWER = 64 * 1024;

function tcp(host: string, port: number, message: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => socket.write(`${message}\n`));
    let received = '';
    // A deadline for the whole answer, not an idle timeout: a byte a second kept an idle one from ever firing.
    const deadline = setTimeout(() => finish(new Error(`no line back within ${timeoutMs} ms`)), timeoutMs);
    const finish = (error?: Error) => {
      clearTimeout(deadline);
      socket.destroy();
      if (error && received === '') reject(error);
      else resolve(received.split('\n')[0]!.trimEnd());
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_TCP_ANSWER) received = received.slice(0, MAX_TCP_ANSWER);
      if (received.includes('\n') || received.length === MAX_TCP_ANSWER) finish();
    });
    socket.once('error', finish);
    socket.once('end', () => finish(new Error('closed without an answer')));
  });
}

export async function probe(
  host: string,
  ports: readonly { host: number; type: 'udp' | 'tcp'; name?: string }[],
  message: string,
  timeoutMs: number,
): Promise<ProbeResult[]> {
  return Promise.all(
    ports.map(async ({ host: port, type, name }) => {
      const base = { port, type, ...(name ? { name } : {}) };
      try {
        return { ...base, answer: await (type === 'udp' ? udp : tcp)(host, port, message, timeoutMs) };
      } catch (error) {
        return { ...base, error: (error as Error).message };
      }
    }),
  );
}
