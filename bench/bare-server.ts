/**
 * The framework's floor for B1: a bare Fastify app with the same routes answering the same
 * JSON bodies our service answered, with no auth, no validation, no store and no logging.
 * argv: a JSON file of { session, list, created } bodies (see service.ts BareBodies).
 */
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const bodies = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { session: object; list: object; created: object };

const app = Fastify({ logger: false });
app.get('/session/:id', async () => bodies.session);
app.get('/session', async () => bodies.list);
app.post('/session', async (_request, reply) => reply.code(201).send(bodies.created));
app.delete('/session/:id', async (_request, reply) => reply.code(204).send());

const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`bare listening on ${url}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
