// The local MCP server (`slotline-client mcp`): the service's own MCP server, at
// `{url}/mcp`, served again over stdio for desktop agents. Tools, resources and prompts
// are the service's, listed and called through it with the API key given, so a key
// sees exactly the tools it has there and every call meets the API's rules. One thing
// is added: uploadMedia also takes a file on this machine (`filePath`), sent with the
// SDK's signed upload, since the remote server can only fetch URLs.
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { SlotlineClient } from '../client.ts';
import { SlotlineError } from '../errors.ts';
import { contentTypeOf, uploadFile } from '../upload.ts';
import { ParamsCheckingTransport, relayedError, RpcError } from './protocol.ts';

export const UPLOAD_TOOL = 'uploadMedia';

export interface LocalServerOptions {
  /** The service's public URL; its MCP server is at `{baseUrl}/mcp`. */
  baseUrl: string;
  apiKey: string;
  /** The SDK client with the same URL and key, for local file uploads. */
  api: SlotlineClient;
  /** Folders that local files may be uploaded from; any folder when empty. */
  mediaDirs?: string[];
  version?: string;
}

/** The tool as the local server lists it: the remote one, taking a file path as well. */
export function withFilePath(tool: Tool): Tool {
  const schema = tool.inputSchema as Tool['inputSchema'] & { required?: string[] };
  return {
    ...tool,
    description:
      `${tool.description ?? ''}\n\nOver this local server, give filePath (a video or image ` +
      'file on this machine) instead of sourceUrl to upload the file itself.',
    inputSchema: {
      ...schema,
      properties: {
        ...schema.properties,
        filePath: {
          type: 'string',
          minLength: 1,
          description:
            'A .mp4, .mov, .png, .jpg, .jpeg, .webp or .heic file on this machine; give this or sourceUrl',
        },
      },
      required: (schema.required ?? []).filter((name) => name !== 'sourceUrl'),
    },
  };
}

/** A tool error in the API's envelope, for a problem found on this machine. */
function localError(code: string, message: string, hint: string): CallToolResult {
  const text = JSON.stringify({ error: { code, message, hint, requestId: 'local' } });
  return { isError: true, content: [{ type: 'text', text }] };
}

async function allowedFile(
  path: string,
  dirs: readonly string[],
): Promise<string | CallToolResult> {
  const full = resolve(path);
  if (!contentTypeOf(full)) {
    return localError(
      'unsupported_media_type',
      `/filePath: ${extname(full) || 'a file without extension'} is not a video or image this service takes`,
      'Give a .mp4, .mov, .png, .jpg, .jpeg, .webp or .heic file.',
    );
  }
  let real: string;
  try {
    real = await realpath(full);
    if (!(await stat(real)).isFile()) throw new Error('not a file');
  } catch {
    return localError(
      'invalid_request',
      `/filePath: no file at ${full}`,
      'Give the path of an existing file.',
    );
  }
  if (dirs.length > 0) {
    const inside = await Promise.all(
      dirs.map(async (dir) => {
        const rel = relative(await realpath(dir).catch(() => resolve(dir)), real);
        return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
      }),
    );
    if (!inside.some(Boolean)) {
      return localError(
        'invalid_request',
        `/filePath: ${full} is outside the folders this server uploads from`,
        `Give a file under ${dirs.join(', ')} (the --media-dir options of slotline-client mcp).`,
      );
    }
  }
  return real;
}

async function uploadLocal(
  options: LocalServerOptions,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const { filePath, sourceUrl, kind, filename, ...rest } = args;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) {
    return localError(
      'invalid_request',
      `/${unknown} is not an argument of this tool`,
      "Pass only the arguments of the tool's inputSchema.",
    );
  }
  if (sourceUrl !== undefined) {
    return localError(
      'invalid_request',
      '/filePath and /sourceUrl cannot both be given',
      'Give one of them.',
    );
  }
  if (typeof filePath !== 'string') {
    return localError('invalid_request', '/filePath must be a string', 'Give the path of a file.');
  }
  const file = await allowedFile(filePath, options.mediaDirs ?? []);
  if (typeof file !== 'string') return file;
  try {
    const upload = await uploadFile(options.api, {
      path: file,
      ...(kind === 'video' || kind === 'image' ? { kind } : {}),
      ...(typeof filename === 'string' ? { filename } : {}),
    });
    const structured = upload as unknown as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: JSON.stringify(upload) }],
      structuredContent: structured,
    };
  } catch (err) {
    if (err instanceof SlotlineError) {
      const { code, message, hint, requestId } = err;
      const text = JSON.stringify({ error: { code, message, hint, requestId } });
      return { isError: true, content: [{ type: 'text', text }] };
    }
    return localError('invalid_request', `/filePath: ${(err as Error).message}`, 'Check the file.');
  }
}

/** What keeps the service's MCP server from answering, in the API's error envelope. */
export interface Problem {
  code: string;
  message: string;
  hint: string;
  requestId: string;
}

/** The service's MCP server cannot be reached, or refused this server (a bad key: 401). */
export class RemoteUnavailable extends Error {
  override readonly name = 'RemoteUnavailable';
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

/** An error's message and its causes' (fetch hides the network error in `cause`). */
function causes(err: unknown): string {
  const parts: string[] = [];
  for (let at = err; at instanceof Error && parts.length < 4; at = at.cause) {
    parts.push(at.message);
  }
  return parts.join(': ') || String(err);
}

/**
 * The connection to the service's MCP server. It is made when first needed and made
 * again after a failure, so a service that was down, or a key fixed in the service,
 * works on the next call without restarting the agent.
 */
export class RemoteLink {
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  /** The service's last refusal, to tell its envelope rather than the transport's text. */
  #refused: { status: number; problem: Problem } | undefined;

  constructor(private readonly options: LocalServerOptions) {}

  /** The connected client, connecting first if need be; throws RemoteUnavailable. */
  client(): Promise<Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    const remote = new Client({
      name: 'slotline-client',
      version: this.options.version ?? '0.1.0',
    });
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, '')}/mcp`);
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${this.options.apiKey}` } },
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (!res.ok) {
          const { code, message, hint, requestId } = await SlotlineError.fromResponse(res.clone());
          this.#refused = { status: res.status, problem: { code, message, hint, requestId } };
        }
        return res;
      },
    });
    try {
      await remote.connect(transport);
    } catch (err) {
      throw new RemoteUnavailable(this.problemOf(err));
    }
    this.#client = remote;
    return remote;
  }

  /** A failure to reach the service, as the envelope to report. */
  problemOf(err: unknown): Problem {
    const status = (err as { code?: unknown } | null)?.code;
    if (typeof status === 'number' && this.#refused?.status === status) {
      return this.#refused.problem;
    }
    return {
      code: 'service_unavailable',
      message: `Cannot reach the Slotline MCP server at ${this.options.baseUrl}/mcp: ${causes(err)}`,
      hint: 'Check SLOTLINE_URL (or --url) and that the service is running; the next call tries again.',
      requestId: 'local',
    };
  }

  async close(): Promise<void> {
    await this.#client?.close();
  }
}

/** A problem as a JSON-RPC error (the lists, reads): said once, with its next step. */
function unavailableError(problem: Problem): RpcError {
  return new RpcError(UPSTREAM_ERROR, `${problem.message} (${problem.code}). ${problem.hint}`, {
    error: problem,
  });
}

/** A problem as a tool result, the way the service answers a refused call. */
function unavailableResult(problem: Problem): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: problem }) }] };
}

/** JSON-RPC's implementation-defined server error: the service behind this one failed. */
const UPSTREAM_ERROR = -32000;

/**
 * The local server, relaying to the service through `link`; connect it to a transport.
 * Its name, version and instructions are the service's when it answered at start (`start`
 * is its client), else its own, saying what the problem is.
 */
export function localServer(
  link: RemoteLink,
  options: LocalServerOptions,
  start: Client | Problem,
): Server {
  const connected = start instanceof Client ? start : undefined;
  const problem = start instanceof Client ? undefined : start;
  const info = connected?.getServerVersion();
  const instructions = problem
    ? `The Slotline service does not answer this server yet: ${problem.message} ${problem.hint}`
    : connected?.getInstructions();
  const server = new Server(
    { name: info?.name ?? 'slotline', version: info?.version ?? options.version ?? '0.0.0' },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      ...(instructions ? { instructions } : {}),
    },
  );
  /** Runs one request against the service; what refuses it is answered once, as it said. */
  const relay = async <T>(run: (remote: Client) => Promise<T>): Promise<T> => {
    let remote: Client;
    try {
      remote = await link.client();
    } catch (err) {
      if (err instanceof RemoteUnavailable) throw unavailableError(err.problem);
      throw err;
    }
    try {
      return await run(remote);
    } catch (err) {
      if (err instanceof McpError) throw relayedError(err);
      throw unavailableError(link.problemOf(err));
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const listed = await relay((remote) => remote.listTools(request.params));
    return {
      ...listed,
      tools: listed.tools.map((tool) => (tool.name === UPLOAD_TOOL ? withFilePath(tool) : tool)),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name === UPLOAD_TOOL && args?.filePath !== undefined) return uploadLocal(options, args);
    // A call the service cannot take is a tool result saying why, which an agent shows.
    try {
      return await relay((remote) => remote.callTool(request.params));
    } catch (err) {
      const data = err instanceof RpcError ? (err.data as { error?: Problem } | undefined) : null;
      if (err instanceof RpcError && err.code === UPSTREAM_ERROR && data?.error) {
        return unavailableResult(data.error);
      }
      throw err;
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    relay((remote) => remote.listResources(request.params)),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
    relay((remote) => remote.listResourceTemplates(request.params)),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    relay((remote) => remote.readResource(request.params)),
  );
  server.setRequestHandler(ListPromptsRequestSchema, (request) =>
    relay((remote) => remote.listPrompts(request.params)),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    relay((remote) => remote.getPrompt(request.params)),
  );
  return server;
}

/**
 * Serves the service's MCP server on `transport` until either side closes. When the
 * service cannot be reached or refuses the key, it serves all the same: initialize
 * completes, `onUnavailable` hears the problem once, and every call answers it (a tool
 * call as a tool error) until the service takes a call.
 */
export async function serveLocal(
  transport: Transport,
  options: LocalServerOptions & { onUnavailable?: (problem: Problem) => void },
): Promise<void> {
  const link = new RemoteLink(options);
  let start: Client | Problem;
  try {
    start = await link.client();
  } catch (err) {
    if (!(err instanceof RemoteUnavailable)) throw err;
    start = err.problem;
    options.onUnavailable?.(start);
  }
  const server = localServer(link, options, start);
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(new ParamsCheckingTransport(transport));
  await closed;
  await link.close();
}
