// JSON-RPC details both Slotline MCP servers share: the service's (`POST /mcp`) and the
// local one over stdio (`slotline-client mcp`).
//
// - Request params are checked against the protocol's own schemas before a request is
//   handled, so a malformed one is refused with -32602 Invalid params and one sentence
//   naming the field. Left to the SDK's Server, the same check throws the validation
//   library's error, which goes out as -32603 Internal error with its raw issue list.
// - Errors carry their text once. The SDK's McpError puts "MCP error <code>: " in front
//   of its message, and that message is what goes on the wire, so a client (which adds
//   the prefix again) showed it twice, and three times through the local server.
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * An error a request handler throws to answer a JSON-RPC error: the SDK's server sends
 * `code`, `message` and `data` as they are, so the message is said once.
 */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The text of an error the SDK's client raised, without the prefix it added. */
export function plainMessage(err: McpError): string {
  const prefix = `MCP error ${err.code}: `;
  return err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
}

/** An error from another MCP server, to answer again unchanged (code, text once, data). */
export function relayedError(err: unknown): unknown {
  return err instanceof McpError ? new RpcError(err.code, plainMessage(err), err.data) : err;
}

/** The requests these servers answer, with the schema of each one's params. */
const REQUESTS = new Map<string, { safeParse(value: unknown): ParseResult }>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema]),
);

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}
type ParseResult = { success: true } | { success: false; error: { issues: Issue[] } };

const KINDS: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return KINDS[typeof value] ?? typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** One issue as a sentence naming the field: `params.arguments must be an object, not null`. */
function sentence(request: unknown, issue: Issue): string {
  const field = issue.path.map(String).join('.') || 'the request';
  const value = valueAt(request, issue.path);
  if (issue.code === 'invalid_type' && issue.expected) {
    const kind = KINDS[issue.expected] ?? issue.expected;
    if (value === undefined) return `${field} is required (${kind})`;
    return `${field} must be ${kind}, not ${kindOf(value)}`;
  }
  const detail = issue.message.replace(/^Invalid input:?\s*/, '');
  return detail ? `${field} is not valid: ${detail}` : `${field} is not valid`;
}

/**
 * The -32602 answer to a request whose params its method's schema refuses, or undefined
 * for a message that is no such request (valid, a notification, or a method not answered
 * here, which the server refuses itself with -32601).
 */
export function invalidParamsOf(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const schema = REQUESTS.get(message.method);
  if (!schema) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const first = parsed.error.issues[0];
  const text = first ? sentence(message, first) : 'the params are not valid';
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Invalid params of ${message.method}: ${text}`,
    },
  };
}

/**
 * A transport that answers requests with invalid params itself (`invalidParamsOf`) and
 * hands everything else to the server connected to it.
 */
export class ParamsCheckingTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      const refusal = invalidParamsOf(message);
      if (!refusal) return this.onmessage?.(message, extra);
      this.inner.send(refusal).catch((error: Error) => this.onerror?.(error));
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

/** Refuses a cursor: these lists come whole, in one page, and hand out none. */
export function refuseCursor(params: { cursor?: unknown } | undefined): void {
  if (params?.cursor === undefined) return;
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params: cursor ${JSON.stringify(params.cursor)} was not issued by this server; ` +
      'its lists come in one page without nextCursor, so send the request without a cursor',
  );
}
