/**
 * The first step of a graceful shutdown: keep-alive connections are told to end by the answers
 * themselves before any is closed. Node's `server.close()` destroys every connection it finds
 * idle, and a connection whose next request is still unread in its socket (a busy event loop has
 * not read it yet) looks idle: its client got a reset for a request it had sent, and could not
 * know whether it was done. Here every answer from now on carries `Connection: close`, and the
 * requests already sent are read (and so answered) before the idle connections go.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Long enough for a client that just had an answer to send its next request on the same connection (loopback, a LAN, HAProxy). */
const DRAIN_SETTLE_MS = 100;

export async function drainConnections(server: Server, settleMs = DRAIN_SETTLE_MS): Promise<void> {
  // No connection, nothing to drain: a shutdown (and every test's) is not made longer for nothing.
  const open = await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 1 : count)));
  if (open === 0) return;
  // Prepended: it runs before the app's listener, which may answer at once.
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => response.setHeader('Connection', 'close'));
  // A keep-alive connection ends after its answer in flight; the next request on it is read and answered with close.
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  // Right after an I/O poll: what was waiting in the sockets has been read, so a connection still idle has sent nothing.
  await new Promise((resolve) => setImmediate(resolve));
}
