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
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { SlotlineClient } from '../client.ts';
import { SlotlineError } from '../errors.ts';
import { contentTypeOf, uploadFile } from '../upload.ts';

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

/** Connects to the service's MCP server; throws what refused it (a bad key: 401). */
export async function connectRemote(options: LocalServerOptions): Promise<Client> {
  const remote = new Client({ name: 'slotline-client', version: options.version ?? '0.1.0' });
  const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/mcp`);
  await remote.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${options.apiKey}` } },
    }),
  );
  return remote;
}

/** The local server, relaying to `remote`; connect it to a transport (stdio) to serve. */
export function localServer(remote: Client, options: LocalServerOptions): Server {
  const info = remote.getServerVersion();
  const server = new Server(
    { name: info?.name ?? 'slotline', version: info?.version ?? '0.0.0' },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      ...(remote.getInstructions() ? { instructions: remote.getInstructions() } : {}),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const listed = await remote.listTools(request.params);
    return {
      ...listed,
      tools: listed.tools.map((tool) => (tool.name === UPLOAD_TOOL ? withFilePath(tool) : tool)),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name === UPLOAD_TOOL && args?.filePath !== undefined) return uploadLocal(options, args);
    return await remote.callTool(request.params);
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    remote.listResources(request.params),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    remote.readResource(request.params),
  );
  server.setRequestHandler(ListPromptsRequestSchema, (request) =>
    remote.listPrompts(request.params),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request) => remote.getPrompt(request.params));
  return server;
}

/** Serves the service's MCP server on `transport` until either side closes. */
export async function serveLocal(transport: Transport, options: LocalServerOptions): Promise<void> {
  const remote = await connectRemote(options);
  const server = localServer(remote, options);
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(transport);
  await closed;
  await remote.close();
}
