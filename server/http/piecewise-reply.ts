/**
 * Answers whose JSON is made of kept strings (a page of sessions: serializers.ts), written to the
 * socket piece by piece instead of joined (issue 19, B3's selective filter): a joined 100-session
 * page was a 40 KB string on the young generation, and Node's HTTP write prepended the head in a
 * second copy. Written corked, the head and the pieces leave in one writev, for which Node copies
 * the strings into one native buffer, off the JavaScript heap; a page then leaves behind about
 * what a 10-session page does.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

export interface Pieces {
  pieces: readonly string[];
  /** Their UTF-8 length together. */
  bytes: number;
}

/** A response serializer that can also give the body as pieces whose concatenation is its JSON. */
export interface PiecewiseSerializer<Body> {
  (body: Body): string;
  pieces(body: Body): Pieces;
}

export function piecewise<Body>(serialize: (body: Body) => string, pieces: (body: Body) => Pieces): PiecewiseSerializer<Body> {
  return Object.assign(serialize, { pieces });
}

/** Fastify's content type for a JSON answer. */
const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * Sends the body piece by piece when the route's serializer for this status can make pieces, and
 * says whether it did (otherwise the caller sends it as usual). The reply is hijacked: Fastify's
 * onSend stage is skipped (this app has no onSend hooks; a HEAD answer's body Node drops itself),
 * and its onResponse hooks still run when the response finishes.
 */
export function sentPiecewise(reply: FastifyReply, status: number, body: unknown): boolean {
  const serialize = reply.getSerializationFunction(String(status)) as Partial<PiecewiseSerializer<unknown>> | undefined;
  if (typeof serialize?.pieces !== 'function') return false;
  const { pieces, bytes } = serialize.pieces(body);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(status, { ...reply.getHeaders(), 'content-type': JSON_UTF8, 'content-length': bytes } as OutgoingHttpHeaders);
  // end() uncorks: the head and every piece are one write to the socket, not one each.
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
  return true;
}
