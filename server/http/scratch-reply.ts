/**
 * Answers written from one reused buffer (issue 19, B3's selective filter): a page of sessions is
 * copied from its sessions' kept bytes into a scratch buffer and sent from there. Joined as a
 * string, a 100-session page was a 40 KB string on the young generation, and Node's HTTP write
 * prepended the head in a second copy: those bytes brought the scavenges behind B3's p99 at
 * 10,000 live sessions (README). A Buffer made per page instead lives outside the heap but counts
 * as external memory, which V8 answered with full mark-compacts (round 5); one buffer, reused,
 * makes neither.
 *
 * Reuse is safe only once the socket no longer needs the bytes: Node writes a Buffer without
 * copying it, and a write the kernel did not take at once keeps pointing into it. So after each
 * send the buffer is reused only if the answer was ended and nothing of it is left unwritten;
 * otherwise the pending write keeps it and the next answer gets a new one.
 */
import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** The largest answer sent from the scratch buffer (the buffer is kept at its largest size): larger ones are sent as strings. */
export const MAX_SCRATCH_BYTES = 256 * 1024;
const INITIAL_BYTES = 64 * 1024;

export class ScratchBuffer {
  private bytes = Buffer.allocUnsafeSlow(INITIAL_BYTES);

  /** The buffer, at least `size` bytes long, or undefined above MAX_SCRATCH_BYTES. Valid until the next send. */
  take(size: number): Buffer | undefined {
    if (size > MAX_SCRATCH_BYTES) return undefined;
    if (size > this.bytes.length) this.bytes = Buffer.allocUnsafeSlow(Math.min(MAX_SCRATCH_BYTES, Math.max(size, this.bytes.length * 2)));
    return this.bytes;
  }

  /** After sending from it: if the socket may still read the buffer, it goes with that write, and the next answer gets a new one. */
  sent(res: ServerResponse): void {
    if (!res.writableEnded || res.writableLength > 0) this.bytes = Buffer.allocUnsafeSlow(this.bytes.length);
  }
}

/**
 * A response serializer that can also write the body's JSON into a scratch buffer (or says it is
 * too large), and then write it as chunks, serialized as the client takes them.
 */
export interface ScratchSerializer<Body> {
  (body: Body): string;
  into(body: Body, scratch: ScratchBuffer): Buffer | undefined;
  chunks(body: Body): AsyncIterable<string>;
}

export function withScratch<Body>(
  serialize: (body: Body) => string,
  into: ScratchSerializer<Body>['into'],
  chunks: ScratchSerializer<Body>['chunks'],
): ScratchSerializer<Body> {
  return Object.assign(serialize, { into, chunks });
}

/** One per process: every use is synchronous, from the copy to the socket's write. */
const scratch = new ScratchBuffer();

/** Fastify's content type for JSON it serializes. */
const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * Sends the body from the scratch buffer when the route's serializer for this status can write it
 * there, or, too large for it, as chunks serialized at the client's pace (Readable.from reads the
 * next only when the socket takes more; `streamed` sees that stream first); says whether it did
 * (otherwise the caller sends it as usual).
 */
export function sentFromScratch(reply: FastifyReply, status: number, body: unknown, streamed: (chunks: Readable) => void = () => {}): boolean {
  const serialize = reply.getSerializationFunction(String(status)) as Partial<ScratchSerializer<unknown>> | undefined;
  if (typeof serialize?.into !== 'function' || typeof serialize.chunks !== 'function') return false;
  const bytes = serialize.into(body, scratch);
  if (!bytes) {
    const chunks = Readable.from(serialize.chunks(body));
    streamed(chunks);
    reply.type(JSON_UTF8).send(chunks);
    return true;
  }
  reply.type(JSON_UTF8).send(bytes);
  scratch.sent(reply.raw);
  return true;
}
