/**
 * How a game server's SDK socket comes to be (server/runtime/sdk-server.mjs, a real unix socket):
 * bound in a private directory (bindDir), made the game server's uid's with mode 0600 there, then
 * renamed into the directory the game server sees. The process's umask is never touched: it is the
 * whole process's (the Docker runtime binds its containers' sockets in the service, whose thread
 * pool makes files meanwhile), and nothing but the finished socket ever appears where the game
 * server looks.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveSdk } from '../../server/runtime/sdk-server.mjs';
import { sdkCall } from '../support/sdk.js';
import { tempDirs } from '../support/temp-dirs.js';

const tempDir = tempDirs('sdk-socket-bind-');
let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
  vi.restoreAllMocks();
});

/** The game server's uid (a chown needs root: without it, the socket stays this process's). */
const gameUid = process.getuid?.() === 0 ? 1000 : undefined;

/** A session's directory as the Docker runtime lays it out: run/ (what the container mounts) and bind/. */
function sessionDir() {
  const dir = tempDir();
  const runDir = join(dir, 'run');
  mkdirSync(runDir, { mode: 0o711 });
  return { runDir, bindDir: join(dir, 'bind'), socketPath: join(runDir, 'sdk.sock') };
}

async function serve(socketPath: string, bindDir: string) {
  const sdk = await serveSdk({ socketPath, bindDir, uid: gameUid, allocation: { id: 's1', labels: {}, players: [] }, onReady() {}, onHealth() {}, onPlayers() {} });
  cleanup.push(() => sdk.close());
  return sdk;
}

describe("a game server's SDK socket", () => {
  it('is bound without changing the process umask', async () => {
    const umask = vi.spyOn(process, 'umask');
    const { socketPath, bindDir } = sessionDir();
    await serve(socketPath, bindDir);
    expect(umask).not.toHaveBeenCalled();
    expect((await sdkCall(socketPath, 'GET', '/allocation?waitSeconds=0')).status).toBe(200);
  });

  it("appears in the game server's directory only once it is the game server's, mode 0600", async () => {
    const { runDir, socketPath, bindDir } = sessionDir();
    const seen = new Set<string>();
    const watcher = watch(runDir, (_event, name) => name && seen.add(name));
    cleanup.push(() => watcher.close());
    await serve(socketPath, bindDir);
    await vi.waitFor(() => expect(seen.has('sdk.sock')).toBe(true), { timeout: 10_000, interval: 20 });
    // Nothing else was ever made there (bound under another name, a moment with another mode).
    expect([...seen]).toEqual(['sdk.sock']);
    expect(readdirSync(runDir)).toEqual(['sdk.sock']);
    const socket = statSync(socketPath);
    expect([socket.isSocket(), socket.uid, socket.mode & 0o777]).toEqual([true, gameUid ?? process.getuid?.(), 0o600]);
    // Where it was bound: this process's alone, and empty once the socket is renamed away.
    const bind = statSync(bindDir);
    expect([bind.uid, bind.mode & 0o777]).toEqual([process.getuid?.(), 0o700]);
    expect(readdirSync(bindDir)).toEqual([]);
  });

  it('is not served once its session directory is gone, and does not make that directory again', async () => {
    const { runDir, socketPath, bindDir } = sessionDir();
    const dir = dirname(runDir);
    rmSync(dir, { recursive: true });
    await expect(serve(socketPath, bindDir)).rejects.toThrow(/ENOENT/);
    expect(existsSync(dir)).toBe(false);
  });

  it('makes a bind directory that exists with a wider mode private again', async () => {
    const { socketPath, bindDir } = sessionDir();
    mkdirSync(bindDir, { mode: 0o755 });
    await serve(socketPath, bindDir);
    expect(statSync(bindDir).mode & 0o777).toBe(0o700);
  });
});
