/**
 * Preloaded into Prism by `npm run mock` (node --import): a request whose path is not valid
 * percent-encoding (`/session/%E0%A4%A`, `/session/%`) threw an uncaught URIError in Prism's
 * path-parameter matching and ended the whole mock, for every client of it. Such a request is
 * answered here as the service answers it (404 RESOURCE_NOT_FOUND, the Error body) and never
 * reaches Prism.
 */
import { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const specVersion = /^\s+version:\s*(\S+)/m.exec(readFileSync(resolve(import.meta.dirname, '../generated/openapi.yaml'), 'utf8'))?.[1] ?? '';

function decodable(path) {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const emit = Server.prototype.emit;
Server.prototype.emit = function (event, request, response) {
  if (event !== 'request') return emit.apply(this, arguments);
  const path = (request.url ?? '/').split('?', 1)[0];
  if (decodable(path)) return emit.apply(this, arguments);
  const body = JSON.stringify({
    statusCode: 404,
    code: 'RESOURCE_NOT_FOUND',
    message: 'Resource not found',
    details: 'no such resource: the path is not valid percent-encoding',
    path,
    identifier: randomBytes(16).toString('hex'),
    timestamp: new Date().toISOString(),
  });
  response.writeHead(404, { 'content-type': 'application/json', 'api-version': specVersion, 'content-length': Buffer.byteLength(body) });
  response.end(body);
  return true;
};
