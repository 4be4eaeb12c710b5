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
import { request } from 'node:http';

export class SdkError extends Error {
  constructor(status, code, message) {
    super(`SDK ${status} ${code}: ${message}`);
    this.status = status;
    this.code = code;
  }
}

/** The SDK of this game server, or undefined when its environment names none. */
export function connectSdk(socketPath = process.env.SESSION_HOST_SDK) {
  if (!socketPath) return undefined;

  /** The session host opens the socket while the game server starts: a socket not there yet is tried again. */
  const call = async (method, path) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(method, path);
      } catch (error) {
        if (attempt >= 40 || (error.code !== 'ENOENT' && error.code !== 'ECONNREFUSED')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  };
  const once = (method, path) =>
    new Promise((resolve, reject) => {
      const req = request({ socketPath, method, path, host: 'session-host-sdk' }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          const body = text ? JSON.parse(text) : undefined;
          if (res.statusCode >= 200 && res.statusCode < 300) resolve(body);
          else reject(new SdkError(res.statusCode, body?.code ?? 'UNKNOWN', body?.message ?? text));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
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
