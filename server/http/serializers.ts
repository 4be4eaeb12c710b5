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
import type { SessionBody } from './session-view.js';

const build = SerializerSelector();
const compiled = new Map<string, Serializer>();

/** The JSON of each Session body served so far, by body (bodies are per record and immutable). */
const sessionJson = new WeakMap<object, string>();

/** A Session body's JSON, made once. */
function keptSessionJson(serialize: Serializer, body: object): string {
  let json = sessionJson.get(body);
  if (json === undefined) sessionJson.set(body, (json = serialize(body)));
  return json;
}

interface SessionListBody {
  sessions: SessionBody[];
  next_cursor?: string | null;
}

/** The route schemas whose bodies are made of kept Session bodies, and how to join them. */
const OF_SESSIONS: Record<string, (session: Serializer) => Serializer> = {
  'Session#': (session) => (body) => keptSessionJson(session, body),
  // SessionList: the properties in the schema's order, as fast-json-stringify writes them.
  'SessionList#': (session) => (body: SessionListBody) =>
    `{"sessions":[${body.sessions.map((item) => keptSessionJson(session, item)).join(',')}]` +
    (body.next_cursor === undefined ? '}' : `,"next_cursor":${JSON.stringify(body.next_cursor)}}`),
};

export const buildSerializer: SerializerFactory = (externalSchemas?: unknown, options?: Options) => {
  const compile = build(externalSchemas, options);
  const context = JSON.stringify([Object.keys(externalSchemas ?? {}), options ?? {}]);
  const compileOnce = (route: Parameters<ReturnType<SerializerFactory>>[0]) => {
    const key = `${context}\n${JSON.stringify(route.schema)}`;
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
  return (route) => {
    const ref = (route.schema as { $ref?: string }).$ref;
    const ofSessions = ref === undefined ? undefined : OF_SESSIONS[ref];
    return ofSessions ? ofSessions(compileOnce({ ...route, schema: { $ref: 'Session#' } })) : compileOnce(route);
  };
};
