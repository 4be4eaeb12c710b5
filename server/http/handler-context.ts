/**
 * What a handler knows of its request besides the validated parts (context.ts), read from the
 * request only when the handler asks: most ask for little (a read needs only the principal), and
 * an object literal with an accessor, built per request, showed in the read path's profile.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Credentials, RequestContext } from './context.js';

/** The request's path without its query. */
export function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

/** Aborts when the client leaves before the answer is complete (at once if it already has). */
function clientGone(response: FastifyReply['raw']): AbortSignal {
  if (response.destroyed && !response.writableFinished) return AbortSignal.abort();
  const gone = new AbortController();
  // Only a client that left before the answer needs telling; abort() costs a DOMException.
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  return gone.signal;
}

class HandlerContext implements RequestContext {
  private made: AbortSignal | undefined;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {}

  get requestId(): string {
    return this.request.id;
  }

  get path(): string {
    return pathOf(this.request);
  }

  get clientAddress(): string {
    return this.request.ip;
  }

  get secure(): boolean {
    return this.request.protocol === 'https' || this.request.headers['x-forwarded-proto'] === 'https';
  }

  onClosed(listener: () => void): void {
    // Node marks a response destroyed as it emits its close, whether it was sent or cut.
    if (this.reply.raw.destroyed) queueMicrotask(listener);
    else this.reply.raw.once('close', listener);
  }

  /** Made when a handler asks (streams do, reads do not): a controller and a listener per request cost. */
  get signal(): AbortSignal {
    return (this.made ??= clientGone(this.reply.raw));
  }
}

/** The handler's context: the request's, with who is calling (set by authentication). */
export function handlerContext(request: FastifyRequest, reply: FastifyReply): RequestContext & Credentials {
  const context = new HandlerContext(request, reply);
  return request.credentials ? Object.assign(context, request.credentials) : context;
}
