/**
 * A client written against Gameye's Session API (v1.2.1), unchanged, against our service: every
 * operation the two APIs share, each request and response checked against Gameye's shapes
 * (summarized below from its published description). Where the seed speaks it wins over
 * Gameye: a missing scope is 401 (Gameye: 403), exhausted quota 403 (Gameye: 402).
 * Gameye's schemas close some objects (`additionalProperties: false`); we send more fields
 * (a fuller session record, `next_cursor`), which its clients ignore, so extra fields are allowed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { useService } from '../support/service.js';
import { runtimeDir } from '../support/sessions.js';

const string = { type: 'string' };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const port = {
  type: 'object',
  required: ['type', 'container', 'host'],
  properties: { type: { enum: ['tcp', 'udp'] }, container: { type: 'integer' }, host: { type: 'integer' } },
};
const sessionStatus = { enum: ['created', 'running', 'restarting', 'exited', 'dead', 'draining', 'shuttingdown', 'server_unreachable'] };
const listEntry = {
  type: 'object',
  required: ['id', 'image', 'location', 'host', 'created', 'port'],
  properties: {
    id: string, image: string, tag: string, location: string, host: string, created: { type: 'number' },
    port: { type: 'object', additionalProperties: { type: 'number' } }, status: sessionStatus, labels: stringMap,
  },
};
const players = { type: 'object', required: ['count', 'players'], properties: { count: { type: 'integer' }, players: { type: 'array', items: string } } };

/** Gameye's shapes, by the name its description gives them. */
const GAMEYE = {
  SessionRun: {
    type: 'object',
    additionalProperties: false,
    required: ['location', 'image'],
    properties: {
      id: string, location: string, image: string, env: stringMap, args: { type: 'array', items: string },
      restart: { type: 'boolean' }, labels: stringMap, version: string, ttl: string,
    },
  },
  SessionRunOk: { type: 'object', required: ['host', 'ports'], properties: { id: string, host: string, ports: { type: 'array', items: port } } },
  SessionListOk: { type: 'object', required: ['sessions'], properties: { sessions: { type: 'array', items: listEntry } } },
  DescribedSession: {
    type: 'object',
    required: ['id', 'image', 'tag', 'location', 'host', 'created', 'port', 'status', 'labels', 'players'],
    properties: {
      ...listEntry.properties,
      players: { type: 'object', required: ['joined', 'joinedCount'], properties: { joined: { type: 'array', items: string }, joinedCount: { type: 'integer' } } },
    },
  },
  JoinSession: { type: 'object', additionalProperties: false, required: ['session', 'players'], properties: { session: string, players: { type: 'array', items: string } } },
  LeaveSession: { type: 'object', additionalProperties: false, required: ['players'], properties: { players: { type: 'array', items: string } } },
  PlayersOk: players,
  AvailableLocationsOk: {
    type: 'object',
    required: ['locations'],
    properties: { locations: { type: 'array', items: { type: 'object', required: ['id', 'ips'], properties: { id: string, ips: { type: 'array', items: string } } } } },
  },
  TagOk: { type: 'object', required: ['exists'], properties: { exists: { type: 'boolean' } } },
  ErrorResponse: {
    type: 'object',
    required: ['statusCode', 'code', 'message', 'details', 'path', 'identifier', 'timestamp'],
    properties: {
      statusCode: { type: 'integer' }, code: string, message: string, details: string, path: string, timestamp: string, identifier: string,
      violations: { type: 'array', items: { type: 'object', required: ['field', 'description'], properties: { field: string, description: string } } },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = Object.fromEntries(Object.entries(GAMEYE).map(([name, schema]) => [name, ajv.compile(schema)])) as Record<keyof typeof GAMEYE, ValidateFunction>;
function expectShape(shape: keyof typeof GAMEYE, value: unknown) {
  const validate = validators[shape];
  expect(validate(value), `${shape}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value)}`).toBe(true);
}

describe('a Gameye Session API client, unchanged, against this service', () => {
  const service = useService();

  /** What a Gameye client sends: bearer token, JSON both ways; requests checked against Gameye's shapes. */
  async function gameye(method: string, path: string, body?: { shape: keyof typeof GAMEYE; value: object }, headers: Record<string, string> = {}) {
    if (body) expectShape(body.shape, body.value);
    const response = await service.contract.fetch(`${service.running.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${service.running.token}`,
        Accept: 'application/json',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      ...(body ? { body: JSON.stringify(body.value) } : {}),
    });
    return response;
  }
  const json = async (response: Response, shape: keyof typeof GAMEYE): Promise<any> => {
    const value = await response.json();
    expectShape(shape, value);
    return value;
  };

  it('runs the whole session lifecycle through every shared operation', async () => {
    // session-run without an id: the service generates a UUID and returns it.
    const run = await gameye('POST', '/session', {
      shape: 'SessionRun',
      value: { location: 'local-a', image: 'echo', env: { MY_SECRET: 'value' }, args: ['--max-players=8'], labels: { 'my-example-tag': '1' }, restart: false },
    });
    expect(run.status).toBe(201);
    const started = await json(run, 'SessionRunOk');
    expect(started.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const id: string = started.id;

    // describe-session, until running.
    let described: { status: string; players: { joinedCount: number } } | undefined;
    for (let i = 0; i < 150 && described?.status !== 'running'; i++) {
      const response = await gameye('GET', `/session/${id}`);
      expect(response.status).toBe(200);
      described = await json(response, 'DescribedSession');
      if (described!.status !== 'running') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(described?.status).toBe('running');

    // session-list with Gameye's filters.
    const listed = await json(await gameye('GET', `/session?location=local-a&filter[my-example-tag]=1`), 'SessionListOk');
    expect(listed.sessions.map((s: { id: string }) => s.id)).toContain(id);

    // join-session and leave-session (leave names only the players).
    const joined = await gameye('PUT', '/session/player/join', { shape: 'JoinSession', value: { session: id, players: ['p1', 'p2'] } });
    expect(joined.status).toBe(200);
    expect(await json(joined, 'PlayersOk')).toMatchObject({ count: 2 });
    const left = await gameye('DELETE', '/session/player/leave', { shape: 'LeaveSession', value: { players: ['p1'] } });
    expect(left.status).toBe(200);
    expect(await json(left, 'PlayersOk')).toMatchObject({ count: 1, players: ['p2'] });

    // get-available-locations and tag-exists.
    const available = await json(await gameye('GET', '/available-location/echo'), 'AvailableLocationsOk');
    expect(available.locations.map((l: { id: string }) => l.id)).toContain('local-a');
    expect(await json(await gameye('GET', '/tag/local-a/echo/latest'), 'TagOk')).toEqual({ exists: true });
    expect(await json(await gameye('GET', '/tag/local-a/echo/no-such-build'), 'TagOk')).toEqual({ exists: false });

    // stream-logs (text/plain).
    const logs = await gameye('GET', `/logs?id=${id}`, undefined, { Accept: 'text/plain' });
    expect(logs.status).toBe(200);
    expect(logs.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await logs.text()).toContain(id);

    // session-stop: 204, then 409 once it has ended.
    expect((await gameye('DELETE', `/session/${id}`)).status).toBe(204);
    for (let i = 0; i < 150 && described?.status !== 'exited'; i++) {
      described = await json(await gameye('GET', `/session/${id}`), 'DescribedSession');
      if (described!.status !== 'exited') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await gameye('DELETE', `/session/${id}`);
    expect(again.status).toBe(409);
    await json(again, 'ErrorResponse');

    // artifacts: an absolute path as the session saw it, an application/x-tar answer, gzip on the wire.
    const workDir = realpathSync(join(await runtimeDir(service.running, id), 'work'));
    const artifact = await gameye('GET', `/artifacts?session=${id}&path=${encodeURIComponent(`${workDir}/summary.json`)}`, undefined, { Accept: 'application/x-tar' });
    expect(artifact.status).toBe(200);
    expect(artifact.headers.get('content-type')).toBe('application/x-tar');
    expect(artifact.headers.get('content-encoding')).toBe('gzip');
    const dir = mkdtempSync(join(tmpdir(), 'gameye-artifact-'));
    writeFileSync(join(dir, 'a.tar'), Buffer.from(await artifact.arrayBuffer()));
    expect(execFileSync('tar', ['tf', 'a.tar'], { cwd: dir, encoding: 'utf8' }).trim()).toBe('summary.json');
    // Outside the working directory nothing is kept: refused like any path that leaves it.
    const outside = await gameye('GET', `/artifacts?session=${id}&path=${encodeURIComponent('/etc/passwd')}`);
    expect(outside.status).toBe(422);
    await json(outside, 'ErrorResponse');
  });

  it("answers Gameye's documented errors in Gameye's error shape", async () => {
    const noImage = await gameye('GET', '/tag/local-a/no-such-image/latest');
    expect(noImage.status).toBe(404);
    await json(noImage, 'ErrorResponse');
    const noRegion = await gameye('GET', '/tag/no-such-region/echo/latest');
    expect(noRegion.status).toBe(404);
    await json(noRegion, 'ErrorResponse');
    const unknown = await gameye('GET', '/session/no-such-session');
    expect(unknown.status).toBe(404);
    await json(unknown, 'ErrorResponse');
    const invalid = await gameye('POST', '/session', { shape: 'SessionRun', value: { location: 'local-a', image: 'echo', ttl: '1h1h' } });
    expect(invalid.status).toBe(422);
    await json(invalid, 'ErrorResponse');
    const unauthorized = await service.contract.fetch(`${service.running.url}/session`, { headers: { Accept: 'application/json' } });
    expect(unauthorized.status).toBe(401);
    await json(unauthorized, 'ErrorResponse');
  });
});
