// A client for Node of the game-server SDK (spec/sdk/): the local endpoint the session host
// gives each game server, HTTP on the unix socket named by SESSION_HOST_SDK. No dependencies,
// so a game server can copy this one file.
//
//   import { connectSdk } from './sdk-client.mjs';
//   const sdk = connectSdk();                  // undefined when not run by a session host with the SDK
//   await sdk.ready();                         // with readiness "sdk": the session is now running
//   const { session } = await sdk.allocation({ waitSeconds: 60 });   // warm: waits for a session
//   const stop = sdk.keepHealthy(2000);        // a health ping every 2 s
//   await sdk.connectPlayer('player-7'); await sdk.disconnectPlayer('player-7');
import { createConnection } from 'node:net';

export class SdkError extends Error {
  constructor(status, code, message, retryAfter) {
    super(`SDK ${status} ${code}: ${message}`);
    this.status = status;
    this.code = code;
    /** Seconds to wait before calling again (a 429: the session's SDK budget is spent). */
    this.retryAfter = retryAfter;
  }
}

/** A call past the SDK's budget (50 a second, bursts of 200) is tried again this many times. */
const BUDGET_RETRIES = 3;

/** The SDK of this game server, or undefined when its environment names none. */
export function connectSdk(socketPath = process.env.SESSION_HOST_SDK) {
  if (!socketPath) return undefined;

  /**
   * The session host opens the socket while the game server starts: a socket not there yet is
   * tried again every 25 ms for a second. A call past the SDK's budget is tried again after the
   * wait it is told (a 429's Retry-After; a second when the SDK closed its socket or the
   * connection for a while, which it does once even its 429s are spent), BUDGET_RETRIES times.
   */
  const call = async (method, path) => {
    for (let attempt = 0, overBudget = 0; ; attempt++) {
      try {
        return await once(method, path);
      } catch (error) {
        // EACCES: made a moment ago, not yet given to this game server's user.
        const notThere = error.code === 'ENOENT' || error.code === 'ECONNREFUSED' || error.code === 'EACCES';
        if (notThere && attempt < 40) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          continue;
        }
        const refused = notThere || (error instanceof SdkError && error.status === 429) || error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.code === 'NO_ANSWER';
        if (!refused || overBudget++ >= BUDGET_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, (error.retryAfter ?? 1) * 1000));
      }
    }
  };
  const once = (method, path) =>
    new Promise((resolve, reject) => {
      // HTTP/1.1 by hand over the socket, one request per connection: a game server's first
      // call through node:http costs it ~10 ms of CPU (its client loaded and compiled), taken
      // just as its first players connect; this costs a few.
      const socket = createConnection(socketPath, () => {
        // Not half-closed after it: the server would take that as the caller gone (a waiting allocation ends).
        socket.write(`${method} ${path} HTTP/1.1\r\nHost: session-host-sdk\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      });
      const chunks = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        try {
          const { status, retryAfter, body } = parseResponse(Buffer.concat(chunks));
          if (status >= 200 && status < 300) resolve(body);
          else reject(new SdkError(status, body?.code ?? 'UNKNOWN', body?.message ?? JSON.stringify(body ?? ''), retryAfter));
        } catch (error) {
          reject(error);
        }
      });
    });
  const player = (id) => `/player/${encodeURIComponent(id)}`;

  return {
    /** { state: 'warm' | 'allocated', session?, connected }; waitSeconds (0-60) waits for an allocation. */
    allocation: ({ waitSeconds = 0 } = {}) => call('GET', `/allocation?waitSeconds=${waitSeconds}`),
    ready: () => call('POST', '/ready'),
    health: () => call('POST', '/health'),
    connectPlayer: (id) => call('PUT', player(id)),
    disconnectPlayer: (id) => call('DELETE', player(id)),
    /** Pings health every `intervalMs` (not keeping the process alive); returns the function that stops it. */
    keepHealthy(intervalMs) {
      const timer = setInterval(() => this.health().catch(() => {}), intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

/** A response read to the connection's end: its status and its JSON body, if any (the session host always sends its length, never chunks). */
function parseResponse(bytes) {
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) throw Object.assign(new Error('SDK: the session host closed the connection without an answer'), { code: 'NO_ANSWER' });
  const head = bytes.subarray(0, split).toString('latin1');
  const status = Number(head.split(' ')[1]);
  const retryAfter = /\r\nretry-after: *(\d+)/i.exec(head)?.[1];
  const body = bytes.subarray(split + 4).toString('utf8');
  return { status, retryAfter: retryAfter === undefined ? undefined : Number(retryAfter), body: body ? JSON.parse(body) : undefined };
}
