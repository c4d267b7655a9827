// The Streamable HTTP transport in its stateless, JSON-answering form (MCP 2025-06-18,
// "Streamable HTTP"), as one transport for the whole process: each POST hands its
// JSON-RPC messages over and gets the responses to its requests back.
//
// Why not the SDK's own WebStandardStreamableHTTPServerTransport: in stateless mode it
// must be built, with a Server, for every request (request ids of different clients
// would collide otherwise), and with its Request, Headers and Response objects that
// costs several times a cheap REST read. Here one SDK Server serves every request, and
// the collision is avoided by giving each incoming request an id of the process's own,
// which its response gets back the client's id for. The rules of the transport that
// matter without sessions are kept: Accept, batch size, protocol version, 202 for
// notifications only; and params are checked before a request is handled (invalidParamsOf).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { invalidParamsOf } from '@slotline/sdk/mcp';

/** At most this many messages in one POST (the SDK's own transport has the same bound). */
export const MAX_BATCH = 100;

/** An HTTP answer of the transport: a status and a JSON body, or no body (202). */
export interface Exchanged {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function rpcError(status: number, code: number, message: string): Exchanged {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null } };
}

type Answer = (message: JSONRPCMessage) => void;

export class ExchangeTransport implements Transport {
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #next = 0;
  readonly #waiting = new Map<number, { id: RequestId; answer: Answer }>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.#waiting.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || !('result' in message || 'error' in message)) {
      // A request or notification of the server's own would need an event stream to go
      // on; a stateless server answering JSON opens none, so there is nowhere to send it.
      return;
    }
    const waiting = this.#waiting.get(message.id as number);
    if (!waiting) return;
    this.#waiting.delete(message.id as number);
    waiting.answer({ ...message, id: waiting.id });
  }

  /**
   * One POST: its headers and parsed body in, its HTTP answer out. `authInfo` reaches
   * every handler as `extra.authInfo`.
   */
  async exchange(
    headers: { accept?: string | undefined; protocolVersion?: string | undefined },
    body: unknown,
    authInfo: AuthInfo,
  ): Promise<Exchanged> {
    const accept = headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return rpcError(
        406,
        -32000,
        'Not Acceptable: the Accept header must list application/json and text/event-stream',
      );
    }
    const batch = Array.isArray(body);
    const raw: unknown[] = batch ? body : [body];
    if (raw.length === 0 || raw.length > MAX_BATCH) {
      return rpcError(400, -32600, `Invalid Request: send 1-${MAX_BATCH} JSON-RPC messages`);
    }
    const messages: JSONRPCMessage[] = [];
    for (const m of raw) {
      const parsed = JSONRPCMessageSchema.safeParse(m);
      if (!parsed.success) return rpcError(400, -32600, 'Invalid Request: not a JSON-RPC message');
      messages.push(parsed.data);
    }
    const initializing = messages.some((m) => 'method' in m && m.method === 'initialize');
    if (initializing && messages.length > 1) {
      return rpcError(400, -32600, 'Invalid Request: initialize must be sent alone');
    }
    const version = headers.protocolVersion;
    if (!initializing && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return rpcError(
        400,
        -32000,
        `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    const answers: Promise<JSONRPCMessage>[] = [];
    for (const message of messages) {
      const refusal = invalidParamsOf(message);
      if (refusal) {
        answers.push(Promise.resolve(refusal));
      } else if ('method' in message && 'id' in message) {
        const own = ++this.#next;
        answers.push(
          new Promise<JSONRPCMessage>((answer) =>
            this.#waiting.set(own, { id: message.id, answer }),
          ),
        );
        this.onmessage?.({ ...message, id: own }, { authInfo });
      } else if ('method' in message && message.method !== 'notifications/cancelled') {
        // A cancellation names a request by the client's id, which is not the id the
        // request runs under here; without a session it cannot be matched, so it is dropped.
        this.onmessage?.(message, { authInfo });
      }
    }
    if (answers.length === 0) return { status: 202 };
    const responses = await Promise.all(answers);
    return { status: 200, body: batch ? responses : responses[0] };
  }
}
