import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersion } from '../../generated/routes.js';
import { expectError } from '../support/http.js';
import { testFleet, useService } from '../support/service.js';

/** Bytes on a raw socket (requests fetch would refuse to send), the whole answer back. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('errors keep the spec error body', () => {
  const service = useService(
    {},
    {
      fleet: testFleet((fleet) => {
        const node = { id: 'locked-1', host: '127.0.0.1', ports: { from: 29800, to: 29809 }, capacity: 1, locked: true };
        fleet.locations.push({ id: 'locked', ips: ['127.0.0.1'], nodes: [node] });
      }),
    },
  );

  it('answers an unknown route with 404', async () => {
    const result = await service.call('GET', '/no/such/route');
    expectError(result, 404, 'RESOURCE_NOT_FOUND', '/no/such/route');
    expect(result.json.details).toContain('/no/such/route');
  });

  it('answers a method the path lacks with 405 and Allow', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/session', 'GET, POST'],
      ['POST', '/session/match-1', 'DELETE, GET'],
      ['GET', '/session/player/join', 'PUT'],
      ['PATCH', '/tag/local-a/echo/latest', 'GET'],
    ] as const) {
      const result = await service.call(method, path);
      expectError(result, 405, 'METHOD_NOT_ALLOWED', path);
      expect(result.headers.get('allow')).toBe(allow);
    }
    // Under the panel's pages an unknown API path is unknown, whatever the method.
    expectError(await service.call('POST', '/admin/api/nothing'), 404, 'RESOURCE_NOT_FOUND', '/admin/api/nothing');
  });

  it("answers requests Node's parser refuses in the error body, with API-Version", async () => {
    const { port } = new URL(service.running.url);
    for (const [request, status] of [
      ['GET /session HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
      [`GET /session HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const) {
      const answer = await rawRequest(Number(port), request);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head).toContain(`API-Version: ${apiVersion}`);
      expect(head).toContain('Cache-Control: no-store');
      expect(JSON.parse(body!)).toMatchObject({ statusCode: status, code: 'BAD_REQUEST', details: expect.any(String), identifier: expect.any(String) });
    }
  });

  it('gives 420 a reason phrase', async () => {
    const { port } = new URL(service.running.url);
    const body = JSON.stringify({ id: 'reason-420', location: 'locked', image: 'echo' });
    const answer = await rawRequest(
      Number(port),
      `POST /session HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${service.running.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1.1 420 Capacity Unavailable\r\n/);
  });

  it('answers a path with broken percent-encoding with 404 in the error body', async () => {
    const result = await service.call('GET', '/session/%E0%A4%A');
    expectError(result, 404, 'RESOURCE_NOT_FOUND', '/session/%E0%A4%A');
  });

  it('answers malformed JSON with 422', async () => {
    const result = await service.call('POST', '/token', { body: '{"name": "x", "scopes": [' });
    expectError(result, 422, 'INVALID_REQUEST', '/token');
    expect(result.json.violations).toEqual([{ field: 'body', description: 'must be a JSON document' }]);
  });

  it('answers an empty JSON body with 422', async () => {
    const result = await service.call('POST', '/token', { body: '', headers: { 'Content-Type': 'application/json' } });
    expectError(result, 422, 'INVALID_REQUEST', '/token');
  });

  it('answers a prototype-pollution body with 422, not 500', async () => {
    const result = await service.call('POST', '/token', { body: '{"name":"x","scopes":["session:read"],"__proto__":{"a":1}}' });
    expectError(result, 422, 'INVALID_REQUEST', '/token');
  });

  it('answers a wrong content type with 415', async () => {
    const result = await service.call('POST', '/token', { body: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expectError(result, 415, 'UNSUPPORTED_MEDIA_TYPE', '/token');
  });

  it('answers a compressed body with 415 saying so, and never reads it as plain JSON', async () => {
    const token = { name: 'gzipped', scopes: ['session:read'] };
    // Real gzip bytes: read as text they were "not a JSON document" (422), which they are once decompressed.
    const gzipped = await service.contract.fetch(`${service.running.url}/token`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.running.token}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify(token)),
    });
    const text = await gzipped.text();
    const result = { status: gzipped.status, headers: gzipped.headers, text, json: JSON.parse(text) };
    expectError(result, 415, 'UNSUPPORTED_MEDIA_TYPE', '/token');
    expect(result.json.details).toContain('Content-Encoding gzip');
    // Plain JSON labelled as compressed was taken as it came (a token minted): refused the same way.
    const mislabelled = await service.call('POST', '/token', { body: token, headers: { 'Content-Encoding': 'br' } });
    expectError(mislabelled, 415, 'UNSUPPORTED_MEDIA_TYPE', '/token');
    // identity is no encoding at all.
    expect((await service.call('POST', '/token', { body: token, headers: { 'Content-Encoding': 'identity' } })).status).toBe(201);
  });

  it('refuses JSON that is not UTF-8 instead of keeping it with U+FFFD in place of its bytes', async () => {
    const send = async (contentType: string, body: Buffer) => {
      const answer = await service.contract.fetch(`${service.running.url}/token`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${service.running.token}`, 'Content-Type': contentType },
        body,
      });
      const text = await answer.text();
      return { status: answer.status, headers: answer.headers, text, json: JSON.parse(text) };
    };
    // "München" in Latin-1: the token was minted named "M\ufffdnchen".
    const latin1 = Buffer.from('{"name":"M\u00fcnchen","scopes":["session:read"]}', 'latin1');
    const declared = await send('application/json; charset=iso-8859-1', latin1);
    expectError(declared, 415, 'UNSUPPORTED_MEDIA_TYPE', '/token');
    expect(declared.json.details).toBe('charset iso-8859-1 is not supported: send the JSON as UTF-8');
    const undeclared = await send('application/json', latin1);
    expectError(undeclared, 422, 'INVALID_REQUEST', '/token');
    expect(undeclared.json.violations).toEqual([{ field: 'body', description: 'is not valid UTF-8' }]);
    // UTF-8, declared or not, is kept as sent.
    const utf8 = Buffer.from('{"name":"M\u00fcnchen \ud83c\udfae","scopes":["session:read"]}', 'utf8');
    for (const contentType of ['application/json', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"']) {
      const minted = await send(contentType, utf8);
      expect(minted.status).toBe(201);
      expect(minted.json.name).toBe('München 🎮');
    }
    // US-ASCII is UTF-8's subset: taken when the bytes are ASCII, refused (not mangled) when not.
    const ascii = await send('application/json; charset=US-ASCII', Buffer.from('{"name":"plain","scopes":["session:read"]}'));
    expect(ascii.status).toBe(201);
    const notAscii = await send('application/json; charset=us-ascii', utf8);
    expectError(notAscii, 422, 'INVALID_REQUEST', '/token');
    expect(notAscii.json.violations).toEqual([{ field: 'body', description: 'is not us-ascii (declared): send the JSON as UTF-8' }]);
  });

  it('answers an oversized body with 413', async () => {
    const result = await service.call('POST', '/token', { body: { name: 'x'.repeat(1_100_000), scopes: ['session:read'] } });
    expectError(result, 413, 'PAYLOAD_TOO_LARGE', '/token');
  });

  it('ignores a body sent to an operation that takes none', async () => {
    // DELETE /token/{id} documents no 415: a stray body must not change its answer.
    const plain = await service.call('DELETE', '/token/tok_unknown', { body: 'whatever', headers: { 'Content-Type': 'text/plain' } });
    expectError(plain, 404, 'RESOURCE_NOT_FOUND', '/token/tok_unknown');
    const json = await service.call('DELETE', '/token/tok_unknown', { body: '{broken' });
    expectError(json, 404, 'RESOURCE_NOT_FOUND', '/token/tok_unknown');
  });

  it('sends API-Version on every response and a fresh identifier on every error', async () => {
    const first = await service.call('GET', '/nope');
    const second = await service.call('GET', '/nope');
    expect(first.json.identifier).not.toBe(second.json.identifier);
    expect((await service.call('GET', '/account')).headers.get('api-version')).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
