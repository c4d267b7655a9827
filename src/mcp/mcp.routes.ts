// The remote MCP server: `POST /mcp`, the Streamable HTTP transport without sessions (so
// it runs behind the same balancer as the API, on any replica) answering JSON. A company
// API key authenticates it like any /v2 call; each tool call is then sent through the app
// itself as the REST request it stands for.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SCOPES } from '../access.ts';
import type { AppContext } from '../context.ts';
import { principalOf } from '../http/auth.ts';
import { ExchangeTransport } from './exchange-transport.ts';
import { authInfoOf, buildServer, catalogOf, type Caller } from './mcp-server.ts';
import type { RestAnswer, RestRequest } from './tool-call.ts';
import type { OpenApiDocument } from './tool-catalog.ts';

/** Whether a JSON-RPC body is tool calls only: those are counted by the REST calls they make. */
function onlyToolCalls(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (m) =>
        m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/call',
    )
  );
}

/**
 * Sends a REST request through the app as the MCP caller: the same Authorization, so the
 * same key, company, scopes, meter and limits. light-my-request runs the whole route
 * (hooks, validation, serialization) without a socket.
 */
function sender(app: FastifyInstance, req: FastifyRequest) {
  const authorization = req.headers.authorization as string;
  return async (request: RestRequest): Promise<RestAnswer> => {
    const res = await app.inject({
      method: request.method,
      url: request.url,
      headers: { ...request.headers, authorization },
      remoteAddress: req.ip,
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    return { status: res.statusCode, body: res.body };
  };
}

/** GET (an event stream) and DELETE (a session's end) mean nothing without sessions. */
async function notAllowed(_req: FastifyRequest, reply: FastifyReply) {
  return reply
    .status(405)
    .header('allow', 'POST')
    .send({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message:
          'Method not allowed: this MCP server keeps no sessions and opens no event stream; ' +
          'send JSON-RPC messages with POST /mcp',
      },
      id: null,
    });
}

export function mcpRoutes(ctx: AppContext, app: FastifyInstance): FastifyPluginAsync {
  // Built once, on the first request: the OpenAPI document is complete only once the app is
  // ready. Requests that arrive together share the one promise.
  let serving: Promise<{ server: Server; transport: ExchangeTransport }> | undefined;
  const serve = () =>
    (serving ??= (async () => {
      const server = buildServer(catalogOf(app.swagger() as OpenApiDocument));
      const transport = new ExchangeTransport();
      await server.connect(transport);
      return { server, transport };
    })());
  // Any key may open the server; what each tool needs is checked by the call it makes.
  const config = { scopes: [...SCOPES], countRequest: false };

  return async (instance) => {
    instance.addHook('onClose', async () => {
      if (serving) await (await serving).server.close();
    });
    instance.post('/mcp', { config, schema: { hide: true } }, async (req, reply) => {
      const principal = principalOf(req);
      if (!onlyToolCalls(req.body)) {
        // Opening, listing and reading are requests of their own; a tool call is counted
        // once, by the REST request it becomes.
        await ctx.access.countRequest(principal, ctx.clock.now());
      }
      const { transport } = await serve();
      const caller: Caller = {
        scopes: principal.scopes,
        requestId: req.id,
        send: sender(app, req),
      };
      const version = req.headers['mcp-protocol-version'];
      const answer = await transport.exchange(
        {
          accept: req.headers.accept,
          protocolVersion: typeof version === 'string' ? version : undefined,
        },
        req.body,
        authInfoOf(caller, principal.keyId),
      );
      reply.status(answer.status);
      if (answer.body === undefined) return reply.send();
      return reply.type('application/json').send(answer.body);
    });
    instance.get('/mcp', { config, schema: { hide: true } }, notAllowed);
    instance.delete('/mcp', { config, schema: { hide: true } }, notAllowed);
  };
}
