/** A minimal HTTP client for scenario setup and checks (the load itself goes through load.ts). */

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
