import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/http.js';
import { testFleet, useService } from '../support/service.js';
import { hostPort, tcpExchange, udpExchange, waitForStatus } from '../support/sessions.js';

describe('sessions of real echo game servers over real HTTP', () => {
  let next = 0;
  const newId = () => `s-${process.pid}-${++next}`;
  const service = useService(
      {},
      {
        fleet: testFleet((fleet) => {
          fleet.locations.push({
            id: 'maintenance',
            ips: ['127.0.0.1'],
            nodes: [{ id: 'maintenance-1', host: '127.0.0.1', ports: { from: 29900, to: 29949 }, capacity: 4, locked: true }],
          });
          fleet.locations.push({
            id: 'tiny',
            ips: ['127.0.0.1'],
            nodes: [{ id: 'tiny-1', host: '127.0.0.1', ports: { from: 29950, to: 29999 }, capacity: 1, locked: false }],
          });
        }),
      },
    );

  it('starts an echo session, plays over UDP and TCP, reads logs, stops it, and downloads its artifacts', async () => {
    const id = newId();
    const started = await service.call('POST', '/session', {
      body: { id, location: 'local-a', image: 'echo', labels: { mode: 'ranked' }, env: { SECRET_SAUCE: 'x' } },
    });
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ id, image: 'echo', tag: 'latest', location: 'local-a', host: '127.0.0.1', status: 'created' });
    expect(started.text).not.toContain('SECRET_SAUCE');
    const [udp, tcp] = [hostPort(started.json, 'udp'), hostPort(started.json, 'tcp')];
    expect(started.json.port).toEqual({ '7777/udp': udp, '7778/tcp': tcp });

    const live = await waitForStatus(service.call, id, ['running']);
    expect(live.ended).toBeNull();
    expect(await udpExchange(live.host, udp, 'ping')).toBe(`echo ${id} ping`);
    expect(await tcpExchange(live.host, tcp, 'hello')).toBe(`echo ${id} hello`);

    const logs = await service.call('GET', `/logs?id=${id}`);
    expect(logs.status).toBe(200);
    expect(logs.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(logs.text).toContain(`echo server for session ${id} on udp 127.0.0.1:${udp}, tcp 127.0.0.1:${tcp}`);

    expectError(await service.call('GET', `/artifacts?session=${id}`), 409, 'CONFLICT', '/artifacts');

    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    const ended = await waitForStatus(service.call, id, ['exited', 'dead']);
    expect(ended).toMatchObject({ status: 'exited', end_reason: 'stopped', exit_code: 0 });
    expect(ended.ended).toBeGreaterThanOrEqual(ended.created);

    expectError(await service.call('DELETE', `/session/${id}`), 409, 'CONFLICT', `/session/${id}`);

    const archive = await service.contract.fetch(`${service.running.url}/artifacts?session=${id}`, {
      headers: { Authorization: `Bearer ${service.running.token}` },
    });
    expect(archive.status).toBe(200);
    // A tar as Gameye clients expect; fetch asked for gzip and unpacked the content encoding.
    expect(archive.headers.get('content-type')).toBe('application/x-tar');
    expect(archive.headers.get('content-encoding')).toBe('gzip');
    const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
    writeFileSync(join(dir, 'a.tar'), Buffer.from(await archive.arrayBuffer()));
    execFileSync('tar', ['xf', 'a.tar'], { cwd: dir });
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ session: id, datagrams: 1, lines: 1 });

    const finalLogs = await service.call('GET', `/logs?id=${id}`);
    expect(finalLogs.text).toContain(`echo server for session ${id} stopping after 1 datagrams, 1 lines`);
  });

  it('follows logs while the session lives and ends the stream when it ends', async () => {
    const id = newId();
    await service.call('POST', '/session', { body: { id, location: 'local-b', image: 'echo' } });
    await waitForStatus(service.call, id, ['running']);
    const response = await service.contract.fetch(`${service.running.url}/logs?id=${id}&follow=true`, {
      headers: { Authorization: `Bearer ${service.running.token}` },
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain(`echo server for session ${id}`);
    await service.call('DELETE', `/session/${id}`);
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(first + rest).toContain('stopping after 0 datagrams');
  });

  it('restarts a crashing game server with restart: true, and lets one without it die', async () => {
    const crashEnv = { ECHO_CRASH_AFTER_MS: '300' };
    const phoenix = newId();
    await service.call('POST', '/session', { body: { id: phoenix, location: 'local-a', image: 'echo', env: crashEnv, restart: true } });
    await waitForStatus(service.call, phoenix, ['running']);
    await waitForStatus(service.call, phoenix, ['restarting']);
    await waitForStatus(service.call, phoenix, ['running']);
    expect((await service.call('DELETE', `/session/${phoenix}`)).status).toBe(204);
    expect(await waitForStatus(service.call, phoenix, ['exited'])).toMatchObject({ end_reason: 'stopped' });

    const mortal = newId();
    await service.call('POST', '/session', { body: { id: mortal, location: 'local-a', image: 'echo', env: crashEnv } });
    const dead = await waitForStatus(service.call, mortal, ['dead']);
    expect(dead).toMatchObject({ end_reason: 'crashed', exit_code: 3 });
    expect((await service.call('GET', `/logs?id=${mortal}`)).text).toContain('crashing on purpose');
  });

  it('stops a crash-looping game server at once, not after its restart backoff', { timeout: 90_000 }, async () => {
    // Restarts back off from 250 ms doubling (restart-backoff.mjs): after the 6th crash the relaunch
    // waits 8 s. A stop meanwhile ends the session now; before, it waited for that relaunch.
    const id = newId();
    await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo', env: { ECHO_CRASH_AFTER_MS: '50' }, restart: true } });
    const crashes = async () => ((await service.call('GET', `/logs?id=${id}`)).text.match(/crashing on purpose/g) ?? []).length;
    await vi.waitFor(async () => expect(await crashes()).toBeGreaterThanOrEqual(6), { timeout: 60_000, interval: 50 });
    // The supervisor waits as the backoff says: 1.5 s on, no 7th crash (every 250 ms, it would have crashed several times more).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await crashes()).toBe(6);
    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    expect(await waitForStatus(service.call, id, ['exited', 'dead'], 4000)).toMatchObject({ end_reason: 'stopped' });
    expect(await crashes()).toBe(6);
  });

  it('answers 404 for an unknown location, image or tag, saying which', async () => {
    const cases = [
      [{ location: 'mars', image: 'echo' }, 'location mars is unknown'],
      [{ location: 'local-a', image: 'doom' }, 'image doom is unknown'],
      [{ location: 'local-a', image: 'echo', version: 'v9' }, 'tag echo:v9 is unknown'],
    ] as const;
    for (const [body, details] of cases) {
      const result = await service.call('POST', '/session', { body: { id: newId(), ...body } });
      expectError(result, 404, 'RESOURCE_NOT_FOUND', '/session');
      expect(result.json.details).toBe(details);
    }
    expectError(await service.call('GET', '/session/nope'), 404, 'RESOURCE_NOT_FOUND', '/session/nope');
    expectError(await service.call('DELETE', '/session/nope'), 404, 'RESOURCE_NOT_FOUND', '/session/nope');
    expectError(await service.call('GET', '/logs?id=nope'), 404, 'RESOURCE_NOT_FOUND', '/logs');
    expectError(await service.call('GET', '/artifacts?session=nope'), 404, 'RESOURCE_NOT_FOUND', '/artifacts');
  });

  it('answers 422 for unknown fields, wrong types and a bad ttl', async () => {
    for (const extra of [{ colour: 'red' }, { restart: 'yes' }, { ttl: '1h1h' }, { labels: { a: 1 } }, { args: 'x' }]) {
      const result = await service.call('POST', '/session', { body: { id: newId(), location: 'local-a', image: 'echo', ...extra } });
      expectError(result, 422, 'INVALID_REQUEST', '/session');
    }
    expectError(await service.call('POST', '/session', { body: { id: newId(), location: 'local-a' } }), 422, 'INVALID_REQUEST', '/session');
    expectError(await service.call('GET', '/session?limit=0'), 422, 'INVALID_REQUEST', '/session');
    expectError(await service.call('GET', '/session?cursor=bogus'), 422, 'INVALID_REQUEST', '/session');
  });

  it('answers 420 with Retry-After when every node is locked or full', async () => {
    const locked = await service.call('POST', '/session', { body: { id: newId(), location: 'maintenance', image: 'echo' } });
    expectError(locked, 420, 'CAPACITY_UNAVAILABLE', '/session');
    expect(locked.json.details).toBe('locked');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(2);

    const first = newId();
    expect((await service.call('POST', '/session', { body: { id: first, location: 'tiny', image: 'echo' } })).status).toBe(201);
    const full = await service.call('POST', '/session', { body: { id: newId(), location: 'tiny', image: 'echo' } });
    expectError(full, 420, 'CAPACITY_UNAVAILABLE', '/session');
    expect(full.json.details).toBe('full');

    const locations = (await service.call('GET', '/location')).json.locations;
    expect(locations.find((l: { id: string }) => l.id === 'tiny')).toMatchObject({ status: 'full', capacity: { total: 1, used: 1, free: 0 } });
    expect(locations.find((l: { id: string }) => l.id === 'maintenance')).toMatchObject({ status: 'locked' });
    const available = (await service.call('GET', '/available-location/echo')).json.locations.map((l: { id: string }) => l.id);
    expect(available).toContain('local-a');
    expect(available).not.toContain('tiny');
    expect(available).not.toContain('maintenance');
    expectError(await service.call('GET', '/available-location/doom'), 404, 'RESOURCE_NOT_FOUND', '/available-location/doom');

    await service.call('DELETE', `/session/${first}`);
    await waitForStatus(service.call, first, ['exited']);
    // The freed slot and ports are reusable.
    const again = newId();
    expect((await service.call('POST', '/session', { body: { id: again, location: 'tiny', image: 'echo' } })).status).toBe(201);
    await service.call('DELETE', `/session/${again}`);
    await waitForStatus(service.call, again, ['exited']);
  });

  it('tracks players joining and leaving, and refuses them for an ended session', async () => {
    const id = newId();
    await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } });
    const joined = await service.call('PUT', '/session/player/join', { body: { session: id, players: ['ann', 'bob'] } });
    expect(joined.json).toEqual({ count: 2, players: ['ann', 'bob'] });
    const again = await service.call('PUT', '/session/player/join', { body: { session: id, players: ['bob', 'cy'] } });
    expect(again.json).toEqual({ count: 3, players: ['ann', 'bob', 'cy'] });
    const left = await service.call('DELETE', '/session/player/leave', { body: { session: id, players: ['ann'] } });
    expect(left.json).toEqual({ count: 2, players: ['bob', 'cy'] });
    const leftAnywhere = await service.call('DELETE', '/session/player/leave', { body: { players: ['cy'] } });
    expect(leftAnywhere.json).toEqual({ count: 1, players: ['bob'] });
    expect((await service.call('GET', `/session/${id}`)).json.players).toEqual({ joined: ['bob'], joinedCount: 1 });

    expectError(await service.call('PUT', '/session/player/join', { body: { session: 'nope', players: ['x'] } }), 404, 'RESOURCE_NOT_FOUND', '/session/player/join');
    await service.call('DELETE', `/session/${id}`);
    await waitForStatus(service.call, id, ['exited']);
    expectError(await service.call('PUT', '/session/player/join', { body: { session: id, players: ['x'] } }), 409, 'CONFLICT', '/session/player/join');
  });

  it('refuses artifact paths that leave the session directory', async () => {
    const id = newId();
    await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } });
    await waitForStatus(service.call, id, ['running']);
    await service.call('DELETE', `/session/${id}`);
    await waitForStatus(service.call, id, ['exited']);
    for (const path of ['../../secret.key', '/etc/passwd', '..', 'a/../../..']) {
      const result = await service.call('GET', `/artifacts?session=${id}&path=${encodeURIComponent(path)}`);
      expectError(result, 422, 'INVALID_REQUEST', '/artifacts');
    }
    expectError(await service.call('GET', `/artifacts?session=${id}&path=missing.txt`), 404, 'RESOURCE_NOT_FOUND', '/artifacts');
    const single = await service.call('GET', `/artifacts?session=${id}&path=summary.json`);
    expect(single.status).toBe(200);
  });
});
