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
import { piecewise, type Pieces } from './piecewise-reply.js';
import type { SessionBody } from './session-view.js';

const build = SerializerSelector();
/** By the component schemas and options (JSON), then by the route's schema (JSON). */
const compiled = new Map<string, Map<string, Serializer>>();

/** A Session body's JSON, made once, with what a list needs of it (made when first listed). */
interface KeptJson {
  json: string;
  /** The JSON as a list's later item: after a comma. */
  item?: string;
  /** Its UTF-8 length. */
  bytes: number;
}

/** The JSON of each Session body served so far, by body (bodies are per record and immutable). */
const sessionJson = new WeakMap<object, KeptJson>();

/** A Session body's JSON, made once. */
function keptSessionJson(serialize: Serializer, body: object): KeptJson {
  let kept = sessionJson.get(body);
  if (kept === undefined) {
    const json = flat(serialize(body));
    sessionJson.set(body, (kept = { json, bytes: Buffer.byteLength(json) }));
  }
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

/**
 * A SessionList's JSON as pieces that are kept strings but for the envelope's two ends: the
 * envelope's start, each session's kept JSON (after the first, its kept form with a leading
 * comma) and the envelope's end. Written to the socket piece by piece (session-list-writer.ts),
 * a page makes no copy of its sessions' JSON on the heap: joined, the body was one 40 KB string
 * at 100 sessions a page and Node's HTTP write prepended the head in a second, and those bytes on
 * the young generation brought the scavenges behind B3's p99 at 10,000 live sessions (README,
 * issue 19). Not a Buffer made per page: its bytes live outside the heap but count as external
 * memory, which V8 answered with full mark-compacts (20 in 5 s when tried in round 5).
 */
function sessionListPieces(session: Serializer, body: SessionListBody): Pieces {
  const { sessions } = body;
  const end = body.next_cursor === undefined ? ']}' : `],"next_cursor":${JSON.stringify(body.next_cursor)}}`;
  const pieces = new Array<string>(sessions.length + 2);
  pieces[0] = '{"sessions":[';
  let bytes = pieces[0].length + Buffer.byteLength(end);
  for (let i = 0; i < sessions.length; i++) {
    const kept = keptSessionJson(session, sessions[i]!);
    if (i === 0) pieces[1] = kept.json;
    else pieces[i + 1] = kept.item ??= flat(`,${kept.json}`);
    bytes += kept.bytes + (i === 0 ? 0 : 1);
  }
  pieces[sessions.length + 1] = end;
  return { pieces, bytes };
}

/** The same as one string (the answer when a list is not written piece by piece). */
function joinSessionList(session: Serializer, body: SessionListBody): string {
  return sessionListPieces(session, body).pieces.join('');
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
    piecewise<SessionListBody>(
      (body) => joinSessionList(session, body),
      (body) => sessionListPieces(session, body),
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
