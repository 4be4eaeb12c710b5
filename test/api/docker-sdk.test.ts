/**
 * The game-server SDK (spec/sdk/) in Docker containers, on a real engine of this machine (see
 * test/support/docker.ts; skipped without SESSION_HOST_DOCKER_ENGINES): the echo image reads its
 * allocation and says ready through the socket the service serves it at /run/session-host/sdk.sock;
 * readiness `sdk` waits for that ready; a health deadline kills a game server that stops pinging
 * (and the engine restarts it when the session asked); and no other container, nor another uid in
 * its own, can open a session's socket.
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import type { FleetConfig } from '../../server/config/fleet-types.js';
import { containerOf, dockerFleet, engines, nodeIn, SDK_SOCKET_IN_CONTAINER, sdkAllocationProbe, skipReason, useDockerService } from '../support/docker.js';
import { waitForStatus } from '../support/sessions.js';

/** The echo image's tag with the SDK's readiness (and more of the tag's settings). */
function sdkImage(fleet: FleetConfig, name: string, tag: object, limits: object = {}) {
  const echo = fleet.images.find((image) => image.name === 'echo')!;
  return { ...structuredClone(echo), name, limits, tags: { latest: { ...structuredClone(echo.tags.latest!), readiness: 'sdk' as const, ...tag } } };
}

describe.skipIf(engines.length < 2)(`the game-server SDK in docker containers${engines.length < 2 ? ` (skipped: ${skipReason})` : ''}`, () => {
  const service = useDockerService('dsdk-', () =>
    dockerFleet((fleet) => {
      fleet.images.push(
        sdkImage(fleet, 'echo-sdk', {}),
        sdkImage(fleet, 'echo-sdk-deadline', {}, { startSeconds: 6 }),
        sdkImage(fleet, 'echo-health', { healthSeconds: 1 }),
      );
    }),
  );

  const logs = async (id: string) => (await service.call('GET', `/logs?id=${id}`)).text;

  /** The host directory mounted at /run/session-host in the session's container, and the mount. */
  async function sdkMountOf(id: string) {
    const { info } = await containerOf(id);
    const mount = info.Mounts.find((m) => m.Destination === '/run/session-host');
    if (!mount) throw new Error(`session ${id}: no SDK mount`);
    return mount;
  }

  it('tells the container its allocation; with readiness "sdk" it is running once it says ready', async () => {
    const id = await service.start('echo-sdk', { labels: { mode: 'ranked' } });
    const session = await waitForStatus(service.call, id, ['running'], 30_000);
    await vi.waitFor(async () => expect(await logs(id)).toContain(`allocated to session ${id} (labels {"mode":"ranked"})`), { timeout: 10_000, interval: 100 });

    // From inside the container, as its game server's uid: the session it runs for.
    const answer = JSON.parse(await nodeIn(id, sdkAllocationProbe(SDK_SOCKET_IN_CONTAINER)));
    expect(answer).toMatchObject({
      state: 'allocated',
      session: { id, labels: { mode: 'ranked' }, host: session.host, players: [] },
    });
    expect(answer.session.ports).toEqual(session.ports.map(({ name, type, host }: { name: string; type: string; host: number }) => ({ name, type, host })));

    // The control API's players follow into the allocation.
    expect((await service.call('PUT', '/session/player/join', { body: { session: id, players: ['p1'] } })).status).toBe(200);
    await vi.waitFor(async () => expect(JSON.parse(await nodeIn(id, sdkAllocationProbe(SDK_SOCKET_IN_CONTAINER))).session.players).toEqual(['p1']), {
      timeout: 10_000,
      interval: 200,
    });

    // Mounted read-only; the socket is the container uid's alone.
    const { info } = await containerOf(id);
    expect(info.Config.Env).toContain(`SESSION_HOST_SDK=${SDK_SOCKET_IN_CONTAINER}`);
    const mount = await sdkMountOf(id);
    expect(mount.RW).toBe(false);
    const socket = statSync(join(mount.Source, 'sdk.sock'));
    expect([socket.isSocket(), socket.uid, socket.mode & 0o777]).toEqual([true, 1000, 0o600]);

    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    expect(await waitForStatus(service.call, id, ['exited', 'dead'], 30_000)).toMatchObject({ status: 'exited', end_reason: 'stopped' });
    // The session's SDK directory goes with it.
    await vi.waitFor(() => expect(() => statSync(mount.Source)).toThrow(/ENOENT/), { timeout: 5000, interval: 100 });
  });

  it('keeps a container that binds its ports but never says ready from counting as running', async () => {
    const id = await service.start('echo-sdk-deadline', { env: { ECHO_SDK: 'off' } });
    await vi.waitFor(async () => expect(await logs(id)).toContain(`echo server for session ${id} on udp`), { timeout: 30_000, interval: 200 });
    // Its ports are bound, and it is not running: it has not said so.
    expect((await service.call('GET', `/session/${id}`)).json.status).toBe('created');
    expect(await waitForStatus(service.call, id, ['dead', 'exited'], 30_000)).toMatchObject({ status: 'dead', end_reason: 'start_failed' });
  });

  it('kills a container that said ready and then stops pinging its health', async () => {
    const id = await service.start('echo-health', { env: { ECHO_SDK: 'no-health' } });
    await waitForStatus(service.call, id, ['running'], 30_000);
    expect(await waitForStatus(service.call, id, ['exited', 'dead'], 30_000)).toMatchObject({ status: 'dead', end_reason: 'crashed', exit_code: 137 });
  });

  it('restarts one that misses its health pings when the session asked for restarts, running again once it says ready', async () => {
    const id = await service.start('echo-health', { env: { ECHO_SDK: 'no-health' }, restart: true });
    await waitForStatus(service.call, id, ['running'], 30_000);
    // Killed as a crash (not as a stop): the engine's restart policy starts it again.
    await vi.waitFor(async () => expect((await containerOf(id)).info.RestartCount).toBeGreaterThanOrEqual(1), { timeout: 30_000, interval: 200 });
    await vi.waitFor(async () => expect((await logs(id)).split(`allocated to session ${id}`).length).toBeGreaterThanOrEqual(3), { timeout: 30_000, interval: 200 });
    // Running again: the restarted game server said ready (and is killed again a second later).
    await waitForStatus(service.call, id, ['running'], 30_000);
    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    expect((await waitForStatus(service.call, id, ['exited', 'dead'], 30_000)).end_reason).toBe('stopped');
  });

  it("keeps another container, and another uid in the same one, from opening a session's socket", async () => {
    const [victim, other] = [await service.start('echo-sdk'), await service.start('echo-sdk')];
    await waitForStatus(service.call, victim, ['running'], 30_000);
    await waitForStatus(service.call, other, ['running'], 30_000);
    const victimSocket = join((await sdkMountOf(victim)).Source, 'sdk.sock');

    // The other container (the same uid, 1000) does not see the victim's socket at its host path…
    expect(await nodeIn(other, sdkAllocationProbe(victimSocket))).toBe('ENOENT');
    // …and its own socket answers with its own session only.
    expect(JSON.parse(await nodeIn(other, sdkAllocationProbe(SDK_SOCKET_IN_CONTAINER))).session.id).toBe(other);

    // Inside the victim's own container, a uid other than its game server's is refused.
    const { engine, info } = await containerOf(victim);
    const { stdout } = await promisify(execFile)(
      'docker',
      ['-H', engine, 'exec', '-u', '1001:1001', info.Id, '/usr/local/bin/node', '-e', sdkAllocationProbe(SDK_SOCKET_IN_CONTAINER)],
      { timeout: 20_000 },
    );
    expect(stdout.trim()).toBe('EACCES');
  });
});
