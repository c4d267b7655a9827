// The baseline: a bare Fastify route serving fixed bytes, started the same way
// as the service so the two are measured under the same conditions. Keys are
// paths (GET), or "POST <path>" for a route that parses the JSON body and
// answers 201 with the fixed bytes.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const port = Number(process.env.PORT);
const bodies = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Record<
  string,
  string
>;
const app = Fastify({ logger: false });
for (const [route, body] of Object.entries(bodies)) {
  if (route.startsWith('POST ')) {
    app.post(route.slice(5), async (_req, reply) =>
      reply.status(201).type('application/json; charset=utf-8').send(body),
    );
  } else {
    app.get(route, async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
  }
}
await app.listen({ port, host: '127.0.0.1' });
