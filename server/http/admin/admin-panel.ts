/**
 * Serves the admin panel's pages: the Vite build in admin/dist (built by `npm run build:admin`,
 * which `npm start` and `npm test` run first). Any /admin path that is not a file gets
 * index.html (the panel routes in the browser); /admin/api paths are the API's, never pages.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const ADMIN_DIST = resolve(import.meta.dirname, '../../../admin/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

type NotFound = (request: FastifyRequest, reply: FastifyReply, details: string) => unknown;

export function registerAdminPanel(app: FastifyInstance, notFound: NotFound, dist = ADMIN_DIST): void {
  const send = async (request: FastifyRequest, reply: FastifyReply, relative: string) => {
    const file = normalize(join(dist, relative));
    if (file !== dist && !file.startsWith(dist + sep)) return notFound(request, reply, 'no such page');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      try {
        body = await readFile(join(dist, 'index.html'));
        relative = 'index.html';
      } catch {
        return notFound(request, reply, 'admin panel not built: run npm run build:admin');
      }
    }
    const immutable = relative.startsWith('assets/');
    return reply
      .headers(SECURITY_HEADERS)
      .header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .type(TYPES[extname(relative)] ?? 'application/octet-stream')
      .send(body);
  };

  app.get('/admin', (_request, reply) => reply.redirect('/admin/'));
  app.get('/admin/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    if (rest === 'api' || rest.startsWith('api/')) {
      return notFound(request, reply, `no route ${request.method} /admin/${rest.split('?')[0]}`);
    }
    // The router has decoded the path once already: decoding again would turn %25zz into a bad escape.
    return send(request, reply, rest === '' ? 'index.html' : rest);
  });
}
