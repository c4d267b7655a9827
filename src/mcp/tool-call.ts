// A tool call as the REST request it stands for, and the REST answer as the tool's
// result. The request goes through the whole API (authorization, scopes, validation,
// quotas, rate limits, idempotency, metering), so a tool can do exactly what the same
// key can do over REST, no more. Pure: arguments in, a request out; an answer in, a
// result out.
import type { ToolRoute } from './tool-catalog.ts';

export interface RestRequest {
  method: ToolRoute['method'];
  /** Path and query, `/v2/posts?limit=5`. */
  url: string;
  headers: Record<string, string>;
  /** The JSON body, when the operation takes one. */
  body?: Record<string, unknown>;
}

/** An argument the REST request cannot be built from: the tool answers `invalid_request`. */
export class ArgumentError extends Error {
  override readonly name = 'ArgumentError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The REST request a tool's arguments make, or an ArgumentError naming the argument. */
export function restRequestOf(
  route: ToolRoute,
  args: Record<string, unknown> | undefined,
): RestRequest {
  const given = { ...args };
  let path = route.path;
  for (const name of route.pathParams) {
    const value = given[name];
    delete given[name];
    if (value === undefined || value === '') {
      throw new ArgumentError(`/${name} is required`, `Pass "${name}" in the tool's arguments.`);
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new ArgumentError(`/${name} must be a string`, `Pass "${name}" as a string id.`);
    }
    // Encoded, an id can never reach another route (`../`, `?`, `#`).
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  for (const name of route.queryParams) {
    const value = given[name];
    delete given[name];
    if (value === undefined || value === null) continue;
    if (!isScalar(value)) {
      throw new ArgumentError(
        `/${name} must be a single value`,
        `Pass "${name}" as a string, number or boolean.`,
      );
    }
    query.set(name, String(value));
  }
  const headers: Record<string, string> = {};
  if (route.idempotencyArg) {
    const key = given[route.idempotencyArg];
    delete given[route.idempotencyArg];
    if (key !== undefined && key !== null) {
      if (typeof key !== 'string') {
        throw new ArgumentError(
          `/${route.idempotencyArg} must be a string`,
          'Send an idempotencyKey of 1-200 characters, the same for every retry of one call.',
        );
      }
      headers['idempotency-key'] = key;
    }
  }
  const search = query.toString();
  const url = search ? `${path}?${search}` : path;
  if (route.body === 'none') {
    const unknown = Object.keys(given)[0];
    if (unknown !== undefined) {
      throw new ArgumentError(
        `/${unknown} is not an argument of this tool`,
        "Pass only the arguments of the tool's inputSchema.",
      );
    }
    return { method: route.method, url, headers };
  }
  // Whatever is left is the body; the API refuses fields it does not know, naming them.
  headers['content-type'] = 'application/json';
  return { method: route.method, url, headers, body: given };
}

export interface RestAnswer {
  status: number;
  /** The raw body, JSON for every answer of /v2 but 204s. */
  body: string;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The `_meta` key carrying the REST status (a create's 201, its idempotent replay's 200). */
export const STATUS_META = 'slotline.io/httpStatus';

/**
 * A REST answer as a tool result: the JSON as structured content and as text, or, for an
 * error, `isError` with the error envelope (code, message, hint, requestId) as text. An
 * error carries no structured content: clients check structured content against the
 * tool's output schema, which describes success.
 */
export function toolResultOf(answer: RestAnswer): ToolResult {
  const meta = { [STATUS_META]: answer.status };
  if (answer.status >= 400) {
    return { isError: true, content: [{ type: 'text', text: answer.body }], _meta: meta };
  }
  if (answer.body === '') {
    return { content: [{ type: 'text', text: `Done (HTTP ${answer.status}).` }], _meta: meta };
  }
  const parsed = JSON.parse(answer.body) as unknown;
  const structured =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { structuredContent: parsed as Record<string, unknown> }
      : {};
  return { content: [{ type: 'text', text: answer.body }], ...structured, _meta: meta };
}

/** The tool result of an error the MCP layer itself finds, in the API's envelope. */
export function errorResult(
  code: string,
  message: string,
  hint: string,
  requestId: string,
  status = 400,
): ToolResult {
  const body = JSON.stringify({ error: { code, message, hint, requestId } });
  return toolResultOf({ status, body });
}
