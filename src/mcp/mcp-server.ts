// The MCP server: the official SDK's low-level Server with the tools, resources and
// prompts of the catalog. One serves every caller: who a request acts for comes with the
// request (`extra.authInfo`). Tools are JSON Schemas taken from the OpenAPI document, not
// zod shapes, which is what the low-level Server (rather than McpServer) is for. Each tool
// call becomes the REST request it stands for, sent as the caller, so it meets every rule
// the REST call meets.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { refuseCursor, RpcError } from '@slotline/sdk/mcp';
import { GUIDES, PROMPTS } from './guides.ts';
import {
  ArgumentError,
  errorResult,
  restRequestOf,
  toolResultOf,
  type RestAnswer,
  type RestRequest,
  type ToolResult,
} from './tool-call.ts';
import { toolsOfDocument, type OpenApiDocument, type ToolSpec } from './tool-catalog.ts';
import { runUploadTool, UPLOAD_TOOL, uploadToolSpec } from './upload-tool.ts';
import { inlineRefs } from './schema-inline.ts';

export const SERVER_INFO = { name: 'slotline', title: 'Slotline', version: '2.2.0' };

const INSTRUCTIONS =
  'Slotline publishes videos, photo posts and rendered carousels to the short-video ' +
  '(platformA) and photo (platformB) accounts of your company. Each tool is one operation ' +
  'of the Slotline API and meets the same rules, scopes and limits. To publish: read ' +
  'slotline://rules/media, find the accounts with listAccounts, upload media with ' +
  'uploadMedia, check the post with validatePost, then createPost with an idempotencyKey. ' +
  'Errors carry the API envelope: code, message (naming the field), hint (the next step) ' +
  'and requestId.';

/** The tools of one API, built once from its OpenAPI document. */
export interface Catalog {
  tools: readonly ToolSpec[];
  byName: ReadonlyMap<string, ToolSpec>;
  /** Each tool as tools/list shows it, made once. */
  listed: ReadonlyMap<ToolSpec, ReturnType<typeof listedTool>>;
}

export function catalogOf(doc: OpenApiDocument): Catalog {
  const upload = doc.components?.schemas?.Upload;
  const uploadSchema = upload ? inlineRefs(upload, doc.components?.schemas ?? {}) : undefined;
  const tools = [...toolsOfDocument(doc), uploadToolSpec(uploadSchema)];
  return {
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
    listed: new Map(tools.map((t) => [t, listedTool(t)])),
  };
}

/** Who the server acts for, and how it reaches the API as them. */
export interface Caller {
  scopes: ReadonlySet<string>;
  /** The request id of the MCP request, for errors the MCP layer finds itself. */
  requestId: string;
  send(request: RestRequest): Promise<RestAnswer>;
}

/** A tool as tools/list shows it: what an MCP client needs, nothing of the route. */
export function listedTool(tool: ToolSpec) {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  };
}

/** Whether a key with these scopes may call the tool (any one of its scopes). */
export function allows(scopes: ReadonlySet<string>, tool: ToolSpec): boolean {
  return tool.scopes.some((s) => scopes.has(s));
}

export async function callTool(
  catalog: Catalog,
  caller: Caller,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<ToolResult> {
  const tool = catalog.byName.get(name);
  if (!tool) {
    const text = `Unknown tool: ${name}; tools/list names the tools this key may call`;
    throw new RpcError(ErrorCode.InvalidParams, text);
  }
  try {
    if (tool.route) return toolResultOf(await caller.send(restRequestOf(tool.route, args)));
    if (tool.name === UPLOAD_TOOL) return toolResultOf(await runUploadTool(caller.send, args));
    throw new RpcError(ErrorCode.InternalError, `Tool ${name} has no implementation`);
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    return errorResult('invalid_request', err.message, err.hint, caller.requestId);
  }
}

/** The AuthInfo a request carries to the handlers: the caller rides in `extra`. */
export function authInfoOf(caller: Caller, keyId: string): AuthInfo {
  // The key itself is not needed past authentication, so it is not passed on.
  return { token: '', clientId: keyId, scopes: [...caller.scopes], extra: { caller } };
}

function callerOf(extra: { authInfo?: AuthInfo | undefined }): Caller {
  const caller = extra.authInfo?.extra?.caller as Caller | undefined;
  if (!caller) throw new RpcError(ErrorCode.InternalError, 'The request has no caller');
  return caller;
}

/** The server for every caller of one catalog. */
export function buildServer(catalog: Catalog): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: INSTRUCTIONS,
  });
  // Every list comes in one page: a cursor is one this server never handed out.
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) => {
    refuseCursor(request.params);
    const { scopes } = callerOf(extra);
    const tools = catalog.tools.filter((t) => allows(scopes, t));
    return { tools: tools.map((t) => catalog.listed.get(t)!) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(catalog, callerOf(extra), request.params.name, request.params.arguments),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    refuseCursor(request.params);
    return {
      resources: GUIDES.map(({ uri, name, title, description }) => ({
        uri,
        name,
        title,
        description,
        mimeType: 'text/markdown',
      })),
    };
  });
  // Declaring resources declares their templates too; the guides have fixed addresses.
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    refuseCursor(request.params);
    return { resourceTemplates: [] };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const guide = GUIDES.find((g) => g.uri === request.params.uri);
    if (!guide) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown resource: ${request.params.uri}; resources/list names the resources`,
      );
    }
    return { contents: [{ uri: guide.uri, mimeType: 'text/markdown', text: guide.text }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, (request) => {
    refuseCursor(request.params);
    return {
      prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({
        name,
        title,
        description,
        arguments: args,
      })),
    };
  });
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown prompt: ${request.params.name}; prompts/list names the prompts`,
      );
    }
    const args = request.params.arguments ?? {};
    const missing = prompt.arguments.find((a) => a.required && !args[a.name]);
    if (missing) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `The prompt needs the argument "${missing.name}"`,
      );
    }
    return {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.render(args) } }],
    };
  });
  return server;
}
