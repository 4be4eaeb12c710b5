/**
 * openapi-fetch reads every success body as JSON unless the call passes `parseAs`, so the typed
 * client's `GET /logs`, `GET /metrics` and `GET /artifacts` compiled and then threw a SyntaxError
 * (outside check 9, F4). Here a call without `parseAs` gets its body read by the answer's
 * Content-Type, and the client's types say so (`SessionHostClient`): JSON parsed, `text/*` a
 * string, `text/event-stream` a ReadableStream (it does not end), anything else (the artifacts'
 * `application/x-tar`, gzip, octet-stream) a Blob, so binary bytes survive. A call's own
 * `parseAs` still decides (the CLI streams logs with `parseAs: 'stream'`).
 */
import type { Client, FetchResponse, MaybeOptionalInit, ParseAs } from 'openapi-fetch';
import type { paths } from '../generated/types.js';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type MediaType = `${string}/${string}`;
type OkStatus = 200 | 201 | 202 | 203 | 204 | 206 | 207 | '2XX';
/** An operation of a path item (openapi-fetch's FetchResponse asks for a record). */
type OperationOf<PathItem, Method> = Method extends keyof PathItem ? (PathItem[Method] extends Record<string | number, any> ? PathItem[Method] : never) : never;
type PathsWith<Paths, Method extends HttpMethod> = { [Path in keyof Paths]: Paths[Path] extends { [K in Method]: unknown } ? Path : never }[keyof Paths];
// As openapi-fetch declares them (its InitParam is not exported): a call's init is optional when nothing in it is required.
type RequiredKeysOfHelper<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** The media types of an operation's successes. */
type SuccessMedia<Operation> = Operation extends { responses: infer Responses }
  ? { [Status in keyof Responses & OkStatus]: Responses[Status] extends { content: infer Content } ? keyof Content : never }[keyof Responses & OkStatus]
  : never;
/** How a success body of this media type comes when the call passes no `parseAs` (see `readBody`). */
type BodyAs<Media, Body> = [Media] extends [never]
  ? Body
  : Media extends 'text/event-stream'
    ? ReadableStream<Uint8Array>
    : Media extends 'application/json' | `${string}+json` | `text/${string}`
      ? Body
      : Blob;
/** openapi-fetch's answer type with a success's data as `readBody` hands it over (a call's own `parseAs` still decides). */
type AsRead<Answer, Operation, Init> = Init extends { parseAs: ParseAs }
  ? Answer
  : Answer extends { data: infer Data; error?: never; response: Response }
    ? { data: BodyAs<SuccessMedia<Operation>, Data>; error?: never; response: Response }
    : Answer;
type ReadingMethod<Paths, Method extends HttpMethod> = <Path extends PathsWith<Paths, Method>, Init extends MaybeOptionalInit<Paths[Path], Method & keyof Paths[Path]>>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<AsRead<FetchResponse<OperationOf<Paths[Path], Method>, Init, MediaType>, OperationOf<Paths[Path], Method>, Init>>;
type ReadingRequest<Paths> = <
  Method extends HttpMethod,
  Path extends PathsWith<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method & keyof Paths[Path]>,
>(
  method: Method,
  url: Path,
  ...init: InitParam<Init>
) => Promise<AsRead<FetchResponse<OperationOf<Paths[Path], Method>, Init, MediaType>, OperationOf<Paths[Path], Method>, Init>>;

/**
 * openapi-fetch's client over the generated `paths`, with each success body typed as the client
 * reads it: the spec types a tar archive and an event stream as `string` (`format: binary`,
 * `text/event-stream`), but a binary body comes as a `Blob` and an endless stream as a `ReadableStream`.
 */
export interface SessionHostClient extends Omit<Client<paths>, Uppercase<HttpMethod> | 'request'> {
  GET: ReadingMethod<paths, 'get'>;
  PUT: ReadingMethod<paths, 'put'>;
  POST: ReadingMethod<paths, 'post'>;
  DELETE: ReadingMethod<paths, 'delete'>;
  OPTIONS: ReadingMethod<paths, 'options'>;
  HEAD: ReadingMethod<paths, 'head'>;
  PATCH: ReadingMethod<paths, 'patch'>;
  TRACE: ReadingMethod<paths, 'trace'>;
  request: ReadingRequest<paths>;
}

/** The media type of a Content-Type header (`text/plain; charset=utf-8` -> `text/plain`), or ''. */
function mediaTypeOf(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

type Outcome = { data?: unknown; error?: unknown; response: Response };

/**
 * A success's body, read by its Content-Type (the call asked openapi-fetch for the unread
 * stream); no Content-Type is read as JSON, openapi-fetch's default. An empty body is '' (an
 * empty Blob) when text (binary) is documented: openapi-fetch answers `undefined` for any
 * `Content-Length: 0`, and a session's log is empty until its game server writes. A 204 or a
 * HEAD has no body; an error openapi-fetch has already read (as JSON when it is).
 */
async function readBody<R extends Outcome>(outcome: R, method: string): Promise<R> {
  const { response } = outcome;
  if (!response.ok || response.status === 204 || method.toUpperCase() === 'HEAD') return outcome;
  const media = mediaTypeOf(response);
  if (media === 'text/event-stream') return outcome;
  if (media === '' || media === 'application/json' || media.endsWith('+json')) {
    const text = await response.text();
    return { ...outcome, data: text ? JSON.parse(text) : undefined };
  }
  if (media.startsWith('text/')) return { ...outcome, data: await response.text() };
  return { ...outcome, data: await response.blob() };
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

/** The client with its calls reading bodies by Content-Type unless they pass `parseAs` themselves (the CLI's streams do). */
export function readingByContentType(client: Client<paths>): SessionHostClient {
  type Init = { parseAs?: string } | undefined;
  const call = (method: string, send: (init: Init) => Promise<Outcome>, init: Init) =>
    init?.parseAs !== undefined ? send(init) : send({ ...init, parseAs: 'stream' }).then((outcome) => readBody(outcome, method));
  const untyped = client as unknown as Record<string, (...args: unknown[]) => Promise<Outcome>>;
  const wrapped: Record<string, unknown> = { ...client };
  for (const method of METHODS) wrapped[method] = (url: string, init?: Init) => call(method, (i) => untyped[method]!(url, i), init);
  wrapped.request = (method: string, url: string, init?: Init) => call(method, (i) => untyped.request!(method, url, i), init);
  return wrapped as unknown as SessionHostClient;
}
