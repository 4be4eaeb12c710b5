/**
 * Response serializers as Fastify builds them by default (fast-json-stringify), compiled once per
 * schema in a process: compiling the route table's is most of the app's start-up (about half a
 * second), and a process that creates the app more than once (the tests: services per test file,
 * a worker's files one after another) need not pay it each time. A serializer is a pure function
 * of its schema and the component schemas, the same in every app this service makes.
 */
import { SerializerSelector, type Options, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

const build = SerializerSelector();
const compiled = new Map<string, Serializer>();

export const buildSerializer: SerializerFactory = (externalSchemas?: unknown, options?: Options) => {
  const compile = build(externalSchemas, options);
  const context = JSON.stringify([Object.keys(externalSchemas ?? {}), options ?? {}]);
  return (route) => {
    const key = `${context}\n${JSON.stringify(route.schema)}`;
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};
