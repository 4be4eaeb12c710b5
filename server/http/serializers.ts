/**
 * Response serializers as Fastify builds them by default (fast-json-stringify), compiled once per
 * schema in a process: compiling the route table's is most of the app's start-up (about half a
 * second), and a process that creates the app more than once (the tests: services per test file,
 * a worker's files one after another) need not pay it each time. A serializer is a pure function
 * of its schema and the component schemas, the same in every app this service makes.
 *
 * Session bodies are serialized once each (issue 19: serialization was most of `GET /session`'s
 * CPU): a body is made once per session record and never changed (session-view.ts), so its JSON
 * is kept beside it and reused, by the session's own route and by the list, whose answer is the
 * page's kept bodies joined. The bytes are the ones fast-json-stringify makes for the schema
 * (test/unit/session-json.test.ts compares them).
 */
import { SerializerSelector, type Options, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { setImmediate } from 'node:timers/promises';
import { MAX_SCRATCH_BYTES, withScratch, type ScratchBuffer } from './scratch-reply.js';
import type { SessionBody } from './session-view.js';

const build = SerializerSelector();
/** By the component schemas and options (JSON), then by the route's schema (JSON). */
const compiled = new Map<string, Map<string, Serializer>>();

/** A Session body's JSON, made once, and its UTF-8 bytes (made when first listed). */
interface KeptJson {
  json: string;
  bytes?: Buffer;
}

/** The JSON of each Session body served so far, by body (bodies are per record and immutable). */
const sessionJson = new WeakMap<object, KeptJson>();

/** A Session body's JSON, made once. */
function keptSessionJson(serialize: Serializer, body: object): KeptJson {
  let kept = sessionJson.get(body);
  if (kept === undefined) sessionJson.set(body, (kept = { json: flat(serialize(body)) }));
  return kept;
}

/**
 * The string made flat, in place: the serializer builds it piece by piece (a rope of hundreds of
 * pieces), and a rope kept is walked again by every list that joins it (most of `GET /session`'s
 * CPU in its profile). Converting a string to a number flattens it first (what pino's flatstr does).
 */
function flat(json: string): string {
  Number(json);
  return json;
}

const listEnd = (body: SessionListBody) => (body.next_cursor === undefined ? ']}' : `],"next_cursor":${JSON.stringify(body.next_cursor)}}`);

/** A SessionList's JSON as one string: the page's kept JSON joined, the envelope's ends on the first and last item (one copy). */
function joinSessionList(session: Serializer, body: SessionListBody): string {
  const { sessions } = body;
  const end = listEnd(body);
  if (sessions.length === 0) return `{"sessions":[${end}`;
  const items = new Array<string>(sessions.length);
  for (let i = 0; i < sessions.length; i++) items[i] = keptSessionJson(session, sessions[i]!).json;
  items[0] = `{"sessions":[${items[0]}`;
  items[items.length - 1] += end;
  return items.join(',');
}

/**
 * A string's UTF-8 bytes in a buffer of their own: Buffer.from would slice them from Node's shared
 * 8 KiB pool, and one long-lived session's bytes would keep a whole slab alive after its
 * neighbours' records changed.
 */
function utf8Bytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

const LIST_START = Buffer.from('{"sessions":[');
const COMMA = 0x2c;

/**
 * The same JSON written into the scratch buffer from the sessions' kept bytes (scratch-reply.ts):
 * no string the size of the page is made. Undefined when the page is too large for the buffer.
 */
function sessionListInto(session: Serializer, body: SessionListBody, scratch: ScratchBuffer): Buffer | undefined {
  const { sessions } = body;
  const end = listEnd(body);
  const items = new Array<Buffer>(sessions.length);
  let size = LIST_START.length + sessions.length + Buffer.byteLength(end);
  for (let i = 0; i < sessions.length; i++) {
    const kept = keptSessionJson(session, sessions[i]!);
    size += (items[i] = kept.bytes ??= utf8Bytes(kept.json)).length;
    // Too large for the buffer: streamed instead (sessionListChunks), without serializing the rest here.
    if (size > MAX_SCRATCH_BYTES) return undefined;
  }
  const out = scratch.take(size);
  if (!out) return undefined;
  out.set(LIST_START, 0);
  let at = LIST_START.length;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[at++] = COMMA;
    out.set(items[i]!, at);
    at += items[i]!.length;
  }
  at += out.write(end, at);
  return out.subarray(0, at);
}

/** About how much of a streamed list is serialized between two turns of the event loop. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A list too large for the scratch buffer, serialized a chunk at a time as the client takes it,
 * the event loop turning between chunks: an account's every retained session with its players
 * (`GET /session?all=true`, 13 MB for 100 sessions of 1,024 players) is no stall for everyone.
 */
async function* sessionListChunks(session: Serializer, body: SessionListBody): AsyncGenerator<string> {
  const { sessions } = body;
  let chunk = '{"sessions":[';
  for (let i = 0; i < sessions.length; i++) {
    chunk += (i === 0 ? '' : ',') + keptSessionJson(session, sessions[i]!).json;
    if (chunk.length < CHUNK_CHARS) continue;
    yield chunk;
    chunk = '';
    await setImmediate();
  }
  yield chunk + listEnd(body);
}

interface SessionListBody {
  sessions: SessionBody[];
  next_cursor?: string | null;
}

/** What joinSessionList writes: the properties in the schema's order, as fast-json-stringify writes them. */
const JOINED_LIST_PROPERTIES = ['sessions', 'next_cursor'];

/**
 * Whether joinSessionList writes the SessionList schema as it is. A property the spec gains later
 * would be dropped by the hand-made join; until the join learns it, the compiled serializer
 * writes lists (slower, never wrong). test/unit/session-json.test.ts fails while that is so.
 */
export function joinWritesSessionList(externalSchemas: unknown): boolean {
  const schema = (externalSchemas as Record<string, { properties?: object } | undefined> | undefined)?.['SessionList'];
  const properties = Object.keys(schema?.properties ?? {});
  return properties.length === JOINED_LIST_PROPERTIES.length && properties.every((name, i) => name === JOINED_LIST_PROPERTIES[i]);
}

/** The route schemas whose bodies are made of kept Session bodies, and how to join them. */
const OF_SESSIONS: Record<string, (session: Serializer) => Serializer> = {
  'Session#': (session) => (body) => keptSessionJson(session, body).json,
  'SessionList#': (session) =>
    withScratch<SessionListBody>(
      (body) => joinSessionList(session, body),
      (body, scratch) => sessionListInto(session, body, scratch),
      (body) => sessionListChunks(session, body),
    ),
};

export const buildSerializer: SerializerFactory = (externalSchemas?: unknown, options?: Options) => {
  const compile = build(externalSchemas, options);
  // The schemas themselves, not only their names: a test may build an app with a changed one.
  const context = JSON.stringify([externalSchemas ?? {}, options ?? {}]);
  let ofContext = compiled.get(context);
  if (!ofContext) compiled.set(context, (ofContext = new Map()));
  const joinsLists = joinWritesSessionList(externalSchemas);
  const compileOnce = (route: Parameters<ReturnType<SerializerFactory>>[0]) => {
    const key = JSON.stringify(route.schema);
    let serializer = ofContext.get(key);
    if (!serializer) {
      serializer = compile(route);
      ofContext.set(key, serializer);
    }
    return serializer;
  };
  return (route) => {
    const ref = (route.schema as { $ref?: string }).$ref;
    const ofSessions = ref === undefined || (ref === 'SessionList#' && !joinsLists) ? undefined : OF_SESSIONS[ref];
    return ofSessions ? ofSessions(compileOnce({ ...route, schema: { $ref: 'Session#' } })) : compileOnce(route);
  };
};
