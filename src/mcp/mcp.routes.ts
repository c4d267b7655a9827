// The remote MCP server: `POST /mcp`, the Streamable HTTP transport without sessions (so
// it runs behind the same balancer as the API, on any replica) answering JSON. A company
// API key authenticates it like any /v2 call; each tool call is then sent through the app
// itself as the REST request it stands for.
import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SCOPES } from '../access.ts';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { principalOf } from '../http/auth.ts';
import { ExchangeTransport, rpcError, type Exchanged } from './exchange-transport.ts';
import { authInfoOf, buildServer, catalogOf, type Caller } from './mcp-server.ts';
import type { RestAnswer, RestRequest } from './tool-call.ts';
import type { OpenApiDocument } from './tool-catalog.ts';

/**
 * Requests that are the protocol's own rather than calls of the server: opening it
 * (initialize), checking it is there (ping), and tool calls, which are counted by the REST
 * request each one becomes. Notifications and responses are never counted either.
 */
const UNMETERED = new Set(['initialize', 'ping', 'tools/call']);

/** How many requests of a JSON-RPC body count in the day's API requests. */
export function meteredRequests(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  let count = 0;
  for (const m of messages) {
    if (m === null || typeof m !== 'object' || !('id' in m)) continue;
    const method = (m as { method?: unknown }).method;
    if (typeof method === 'string' && !UNMETERED.has(method)) count++;
  }
  return count;
}

/** The origins browsers may call /mcp from: PUBLIC_URL's and MCP_ALLOWED_ORIGINS. */
function originCheck(config: Config): (origin: string) => boolean {
  const allowed = new Set([new URL(config.publicUrl).origin, ...config.mcpAllowedOrigins]);
  return (origin) => {
    let parsed: string;
    try {
      parsed = new URL(origin).origin;
    } catch {
      return false;
    }
    return allowed.has(parsed);
  };
}

/**
 * The transport's answer to a body the app's JSON parser refused, in JSON-RPC's shape as
 * the SDK's own transport answers it; null for any other error (the API's envelope).
 */
function parserRefusal(err: FastifyError): Exchanged | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return rpcError(400, -32700, 'Parse error: the body is not one well-formed JSON document');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return rpcError(400, -32700, 'Parse error: the body is empty; send a JSON-RPC message');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return rpcError(
        415,
        -32000,
        'Unsupported Media Type: send the JSON-RPC messages with Content-Type: application/json',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return rpcError(413, -32000, 'Payload Too Large: send fewer or smaller messages at a time');
  }
  if (err instanceof SyntaxError) {
    return rpcError(400, -32700, 'Parse error: the body is not one well-formed JSON document');
  }
  return null;
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

  const allowedOrigin = originCheck(ctx.config);

  return async (instance) => {
    instance.addHook('onClose', async () => {
      if (serving) await (await serving).server.close();
    });
    // Against DNS rebinding (the transport's MUST): a browser's request from a page of
    // another origin is refused, whatever key it carries. Servers and the stdio bridge
    // send no Origin and are not browsers.
    instance.addHook('onRequest', async (req, reply) => {
      const origin = req.headers.origin;
      if (origin === undefined || allowedOrigin(origin)) return;
      const refusal = rpcError(
        403,
        -32000,
        `Invalid Origin header: ${origin} may not call this MCP server; a browser may call ` +
          "it only from the service's own origin or one listed in MCP_ALLOWED_ORIGINS",
      );
      return reply.status(refusal.status).type('application/json').send(refusal.body);
    });
    // What the app's JSON parser refuses is answered as the transport answers it; any
    // other error (authentication, limits) goes on to the app's handler and its envelope.
    instance.setErrorHandler(async (err: FastifyError, _req, reply) => {
      const refusal = parserRefusal(err);
      if (!refusal) throw err;
      return reply.status(refusal.status).type('application/json').send(refusal.body);
    });
    instance.post('/mcp', { config, schema: { hide: true } }, async (req, reply) => {
      const principal = principalOf(req);
      // Calls count, the protocol's own chatter does not (meteredRequests); a tool call
      // is counted once, by the REST request it becomes.
      for (let n = meteredRequests(req.body); n > 0; n--) {
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
