/** A minimal HTTP client for scenario setup and checks (the load itself goes through load.ts). */
import { Agent, request } from 'node:http';

export interface Reply<T = any> {
  status: number;
  body: T;
}

export function client(url: string, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<Reply<T>> => {
    const response = await fetch(url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body: unknown) => call<T>('POST', path, body),
    del: <T = any>(path: string) => call<T>('DELETE', path),
  };
}

export type Api = ReturnType<typeof client>;

/**
 * The same calls over one kept-alive connection through node:http, for requests whose latency is
 * measured one at a time (B6): fetch's WHATWG layer costs ~0.5-1 ms a request on this machine
 * (a bare node:http server answered its POST in 0.92 ms p50 through fetch, 0.44 ms through
 * node:http, same run), which is the bench's time, not the service's. `close()` ends the connection.
 */
export function keepAliveClient(url: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = <T>(method: string, path: string, body?: unknown): Promise<Reply<T>> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
      if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
      const req = request(url + path, { method, agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  return {
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body: unknown) => call<T>('POST', path, body),
    del: <T = any>(path: string) => call<T>('DELETE', path),
    close: () => agent.destroy(),
  };
}

export const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Poll until `check` returns true; throws after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Wait until no session of the account is still `created` (the simulated runtime takes 1 s). */
export function waitAllRunning(api: Api, timeoutMs = 60_000): Promise<void> {
  return waitUntil(
    'every session to be running',
    async () => (await api.get('/session?status=created&limit=1')).body.sessions.length === 0,
    timeoutMs,
    250,
  );
}
