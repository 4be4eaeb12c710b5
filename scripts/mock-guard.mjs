/**
 * Preloaded into Prism by `npm run mock` (node --import): a request whose path is not valid
 * percent-encoding (`/session/%E0%A4%A`, `/session/%`) threw an uncaught URIError in Prism's
 * path-parameter matching and ended the whole mock, for every client of it. Such a request is
 * answered here as the service answers it (404 RESOURCE_NOT_FOUND, the body its errorBody()
 * shapes, loaded with tsx's tsImport: no loader hooks into Prism's own modules) and never
 * reaches Prism.
 */
import { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const { errorBody } = await tsImport('../server/http/errors.ts', import.meta.url);

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
  const body = JSON.stringify(
    errorBody('RESOURCE_NOT_FOUND', { requestId: randomBytes(16).toString('hex'), path }, { details: 'no such resource: the path is not valid percent-encoding' }),
  );
  response.writeHead(404, { 'content-type': 'application/json', 'api-version': specVersion, 'content-length': Buffer.byteLength(body) });
  response.end(body);
  return true;
};
