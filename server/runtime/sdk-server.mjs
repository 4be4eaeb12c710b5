// The game-server SDK endpoint of one session (spec/sdk/): HTTP on a unix socket that only the
// session's own game server can open, and what the game server says through it (sdkLiveness).
// One module for every runtime that serves it: the process runtime's supervisor serves its one
// session; the Docker runtime serves each container of an engine on this machine from the
// service (docker/container-sdk.ts). Whoever serves it knows that session and nothing else: no
// credentials, no way to the control API or to another session.
//
// Plain JavaScript, like the supervisor that loads it (no TypeScript loader on a start's path).
import { chmodSync, chownSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenBucket } from './token-bucket.mjs';

/** Bounds on what a game server can make the supervisor hold. */
const MAX_CONNECTED = 1024;
const MAX_WAITERS = 64;
const MAX_CONNECTIONS = 32;
const PLAYER = /^[A-Za-z0-9._:@-]{1,128}$/;
/**
 * The longest socket path serveSdk takes: a unix socket's path is at most 107 bytes, and it binds
 * first in its bindDir (no longer a path than the socket's) under a name of up to 20 bytes.
 */
export const MAX_SOCKET_PATH = 87;
/** Servers bound by this process so far: each binds under a name of its own first. */
let bound = 0;

/**
 * Calls a session's game server may make (spec/sdk/): its supervisor answers them with the host's
 * CPU, outside the session's limits, so a game server hammering its SDK must not get a core of it.
 * Ample for health pings, players joining a match at once and allocation reads.
 */
export const SDK_CALLS = { perSecond: 50, burst: 200 };
/**
 * `429` answers past the budget, themselves limited: once these are spent too, the socket is closed
 * until the wait the 429s told is over (closeUntilToken), so a flood past both costs nothing more.
 */
const REFUSALS = { perSecond: 20, burst: 20 };

/**
 * Listens on `socketPath` (owned by `uid` when given, mode 0600) and resolves once it does (a
 * path of at most MAX_SOCKET_PATH bytes). `bindDir`: where it is bound first, a directory the game
 * server does not see, on the socket's file system (made, mode 0700, when missing: its parent
 * must exist); the socket is made the game server's there and then renamed into place, so it
 * never exists where the game server looks with any other owner or mode, and the process's umask
 * is never touched (a umask is the whole process's: a file made meanwhile by another thread would
 * get it).
 * `allocation`: the session (null while warm). Callbacks: onReady(), onHealth(), onPlayers(connected).
 * `calls`: the call budget (SDK_CALLS unless a test gives its own); `now`: the clock it is kept
 * on (milliseconds, monotonic). Returns { allocate(session), close() }: allocate() returns the
 * function that answers the calls waiting for the session (see there).
 */
export async function serveSdk({ socketPath, bindDir, uid, allocation, onReady, onHealth, onPlayers, calls = SDK_CALLS, now }) {
  let session = allocation;
  const connected = [];
  const waiters = new Set();
  const budget = tokenBucket({ ...calls, now });
  const refusals = tokenBucket({ ...REFUSALS, now });
  /** Sockets answered 429: whatever else was sent on them (pipelined) is not answered. */
  const refused = new WeakSet();

  const body = () => (session ? { state: 'allocated', session, connected } : { state: 'warm', connected });
  /**
   * The allocation's answer, serialized once per change (allocate(), setPlayers(), a player
   * connecting or leaving) and written as these bytes on every call until then: serialized per
   * call, a session with ~900 KB of labels read at the call budget cost its supervisor 31% of a
   * core (outside check 9, F3).
   */
  let answer;
  const changed = () => {
    answer = undefined;
  };
  const allocationAnswer = () => (answer ??= Buffer.from(JSON.stringify(body())));
  const sendAllocation = (res) => {
    const bytes = allocationAnswer();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length }).end(bytes);
  };
  const send = (res, status, value) => {
    if (value === undefined) {
      res.writeHead(status).end();
      return;
    }
    const text = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  };
  const fail = (res, status, code, message) => send(res, status, { code, message });
  const retryAfterSeconds = () => Math.max(1, Math.ceil(budget.secondsUntilToken()));

  /**
   * Neither a call nor a 429 left to give: the socket is closed (its path removed) until the wait
   * the 429s told is over, so a flood costs nothing more meanwhile (connecting fails at once, in
   * the game server's own time), then served again as at the start. Whatever is open goes on.
   */
  let closedUntil;
  let ended = false;
  const closeUntilToken = () => {
    if (closedUntil || ended) return;
    closedUntil = setTimeout(reopen, retryAfterSeconds() * 1000);
    closedUntil.unref();
    server.close();
    // The name the game server connects to was renamed into place, so the close does not unlink it.
    rmSync(socketPath, { force: true });
  };
  const reopen = () => {
    if (ended) return;
    listen().then(
      () => {
        closedUntil = undefined;
        // Closed meanwhile (the session ended): the socket just renamed into place goes too.
        if (ended) {
          server.close();
          rmSync(socketPath, { force: true });
        }
      },
      // Not this time (its directory gone at the session's end?): again a moment later.
      () => {
        if (server.listening) server.close();
        closedUntil = setTimeout(reopen, 1000);
        closedUntil.unref();
      },
    );
  };

  /**
   * A call past the budget: `429` with Retry-After, and its connection closed (a keep-alive
   * flood gets one answer, not one per request); past the refusals' own budget, nothing.
   */
  const refuse = (req, res) => {
    if (!refusals.take()) {
      req.socket.destroy();
      return closeUntilToken();
    }
    refused.add(req.socket);
    const retryAfter = retryAfterSeconds();
    const text = JSON.stringify({
      code: 'TOO_MANY_REQUESTS',
      message: `more than ${calls.perSecond} calls a second (bursts of ${calls.burst}); retry after ${retryAfter} s`,
    });
    res
      .writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'retry-after': String(retryAfter), connection: 'close' })
      .end(text);
  };

  const getAllocation = (req, res, url) => {
    const raw = url.searchParams.get('waitSeconds') ?? '0';
    const wait = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
    if (!(wait >= 0 && wait <= 60)) return fail(res, 400, 'BAD_REQUEST', 'waitSeconds must be an integer from 0 to 60');
    if (session || wait === 0) return sendAllocation(res);
    if (waiters.size >= MAX_WAITERS) return sendAllocation(res);
    const waiter = () => {
      clearTimeout(timer);
      waiters.delete(waiter);
      if (!res.writableEnded) sendAllocation(res);
    };
    const timer = setTimeout(waiter, wait * 1000);
    waiters.add(waiter);
    // The response, not the socket: a keep-alive connection carries many long-polls.
    res.once('close', () => {
      clearTimeout(timer);
      waiters.delete(waiter);
    });
  };

  const player = (res, method, id) => {
    if (!PLAYER.test(id)) return fail(res, 400, 'BAD_REQUEST', 'a player id is 1 to 128 of A-Z a-z 0-9 . _ : @ -');
    const at = connected.indexOf(id);
    if (method === 'PUT' && at === -1) {
      if (connected.length >= MAX_CONNECTED) return fail(res, 409, 'FULL', `${MAX_CONNECTED} players are connected already`);
      connected.push(id);
      changed();
      onPlayers([...connected]);
    } else if (method === 'DELETE' && at !== -1) {
      connected.splice(at, 1);
      changed();
      onPlayers([...connected]);
    }
    send(res, 204);
  };

  const refuseBody = (req, res) => {
    const text = JSON.stringify({ code: 'BAD_REQUEST', message: 'no SDK call takes a request body' });
    res
      .writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' })
      .end(text, () => req.socket.destroy());
  };

  const server = createServer({ maxHeaderSize: 8192 }, (req, res) => {
    // Sent on a connection already answered 429 (pipelined): never answered; the connection
    // closes once that answer is out (destroying it here would lose the answer).
    if (refused.has(req.socket)) return;
    if (!budget.take()) return refuse(req, res);
    // No operation takes a body. One sent anyway is not read: a game server streaming an endless
    // body made its supervisor read 100 MB/s for one call of its budget (outside check 9); the
    // call is answered 400 and its connection closed, unread.
    if (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0) return refuseBody(req, res);
    req.resume();
    let url;
    try {
      url = new URL(req.url ?? '/', 'http://session-host-sdk');
    } catch {
      // A request line that is no URL (`GET http://[`): the game server's mistake, not a reason to die.
      return fail(res, 400, 'BAD_REQUEST', 'the request target is not a valid URL');
    }
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /allocation') return getAllocation(req, res, url);
    if (route === 'POST /ready') {
      onReady();
      return send(res, 204);
    }
    if (route === 'POST /health') {
      onHealth();
      return send(res, 204);
    }
    const playerPath = /^\/player\/([^/]+)$/.exec(url.pathname);
    if (playerPath && (req.method === 'PUT' || req.method === 'DELETE')) {
      let id;
      try {
        id = decodeURIComponent(playerPath[1]);
      } catch {
        return fail(res, 400, 'BAD_REQUEST', 'the player id is not valid percent-encoding');
      }
      return player(res, req.method, id);
    }
    fail(res, 404, 'NOT_FOUND', `no operation ${route}`);
  });
  server.maxConnections = MAX_CONNECTIONS;
  // Accepted before its refusals were known spent: closed unread.
  server.on('connection', (socket) => {
    if (budget.has() || refusals.has()) return;
    socket.destroy();
    closeUntilToken();
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 70_000;

  /** Listens on socketPath afresh (at the start, and after a flood closed it); rejects when it cannot. */
  const listen = async () => {
    // Bound under a name of its own in a directory only this process's user may enter, then
    // renamed into place once it is the game server's (a rename keeps the inode, its owner and
    // mode): a server's close unlinks the name it was bound at, so a server closing late (a Docker
    // session's previous supervising instance, moved off its node) never removes the socket that
    // replaced its own; a game server never finds a socket it may not open yet; and nobody else can
    // reach it while its mode is still the umask's.
    // Not recursive: a session directory removed meanwhile (its end) is not made again, and the
    // bind fails as the socket's own directory would.
    try {
      mkdirSync(bindDir, { mode: 0o700 });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    chmodSync(bindDir, 0o700);
    const boundAt = join(bindDir, `${process.pid}-${++bound}`);
    rmSync(boundAt, { force: true });
    const listening = new Promise((resolve, reject) => {
      const failed = (error) => {
        server.off('listening', done);
        reject(error);
      };
      const done = () => {
        server.off('error', failed);
        resolve();
      };
      server.once('error', failed);
      server.once('listening', done);
    });
    server.listen(boundAt);
    await listening;
    try {
      if (typeof uid === 'number') chownSync(boundAt, uid, uid);
      chmodSync(boundAt, 0o600);
      renameSync(boundAt, socketPath);
    } catch (error) {
      server.close();
      throw error;
    }
  };
  await listen();

  return {
    /** The session's players as the control API has them now. */
    setPlayers(players) {
      if (!session) return;
      session = { ...session, players };
      changed();
    },
    /**
     * The session a warm game server now runs for: every call is answered with it from here on.
     * The calls already waiting for it (a long-poll) are answered by the function it returns, which
     * the handoff calls once its `ok` is out (warm-handoff.mjs): answering one wakes the game server,
     * and on a busy core the woken game server runs before the `ok` is written, so the start's
     * `201` would wait for its reaction to the session too (~2 ms measured at load 5).
     */
    allocate(next) {
      session = next;
      changed();
      return () => {
        for (const waiter of [...waiters]) waiter();
      };
    },
    close() {
      ended = true;
      clearTimeout(closedUntil);
      if (server.listening) server.close();
      server.closeAllConnections();
    },
  };
}

/**
 * What a game server said of itself through its SDK since its current launch: whether it said
 * ready, and when it last pinged its health. With `healthSeconds`, one that said ready and then
 * goes that long without a ping is hung: `onMissed()` is called (once per launch; the caller kills
 * it, and a restart is a new launch), checked while `live()` says it runs. Both runtimes drive
 * their sessions' `running` and health kills by it.
 */
export function sdkLiveness({ healthSeconds, live, onMissed }) {
  const limitMs = (healthSeconds ?? 0) * 1000;
  let ready = false;
  /** Monotonic ms: durations never follow the wall clock. */
  let lastHealth = 0;
  const timer = limitMs
    ? setInterval(() => {
        if (!ready || !live() || performance.now() - lastHealth <= limitMs) return;
        ready = false;
        onMissed();
      }, Math.min(1000, limitMs / 2))
    : undefined;
  timer?.unref();
  return {
    /** `POST /ready`; true when it is the launch's first (what makes a session with readiness `sdk` running). */
    ready() {
      lastHealth = performance.now();
      if (ready) return false;
      ready = true;
      return true;
    },
    /** `POST /health`. */
    health() {
      lastHealth = performance.now();
    },
    get isReady() {
      return ready;
    },
    /** The game server was started again: it says ready again, and its health is watched from then. */
    relaunched() {
      ready = false;
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** What warmUp() asks its own server: every operation once. */
const WARM_UP_CALLS = [
  ['POST', '/ready'],
  ['GET', '/allocation?waitSeconds=0'],
  ['POST', '/health'],
  ['PUT', '/player/warm-up'],
  ['DELETE', '/player/warm-up'],
];

/**
 * Serves a throwaway SDK on a socket in a private directory of its own, calls each operation
 * once, and removes it all. A spare supervisor does this while it waits: the first requests of a
 * fresh process's HTTP server cost ~15 ms of CPU (node:http's code compiled on first use), which
 * the session's own SDK would otherwise take just as its game server starts and its first
 * players connect. Resolves whether or not it worked (it only warms).
 */
export async function warmUp() {
  let dir;
  try {
    dir = mkdtempSync(join(tmpdir(), 'session-host-sdk-warm-up-'));
    const socketPath = join(dir, 'sdk.sock');
    const sdk = await serveSdk({
      socketPath,
      bindDir: join(dir, 'bind'),
      allocation: { id: 'warm-up', labels: {}, host: '127.0.0.1', ports: [], players: [] },
      onReady() {},
      onHealth() {},
      onPlayers() {},
    });
    try {
      for (const [method, path] of WARM_UP_CALLS) await call(socketPath, method, path);
    } finally {
      sdk.close();
    }
  } catch {
    // Nothing warmed: the session's SDK works all the same, only its first requests cost more.
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** One request, answered (or failed) when the server closes the connection. */
function call(socketPath, method, path) {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath, () => {
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: session-host-sdk\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    });
    socket.setTimeout(5000, () => socket.destroy(new Error('the warm-up request timed out')));
    socket.on('data', () => {});
    socket.once('error', reject);
    socket.once('close', () => resolve());
  });
}
