// The MCP tools, derived from the served OpenAPI document: one tool per /v2 operation a
// company key may call, named by its operationId, whose input is the operation's path,
// query and body fields (and its Idempotency-Key header) as one object. Deriving them
// from the document, which is itself generated from the route schemas, is what keeps
// the tools and the REST API from drifting apart. Pure: a document in, tools out.
import { inlineRefs, type JsonSchema } from './schema-inline.ts';

/** How a tool's arguments become an HTTP request to its operation. */
export interface ToolRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template, `/v2/posts/{postId}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The argument carrying the Idempotency-Key header, when the operation takes one. */
  idempotencyArg: string | null;
  /** `fields`: the body's properties are arguments; `none`: the operation takes no body. */
  body: 'fields' | 'none';
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolSpec {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  /** Any one of these scopes admits a call (the operation's security requirement). */
  scopes: string[];
  /** Absent for tools that are not one REST call (the upload tool). */
  route?: ToolRoute;
}

/** The argument name of the Idempotency-Key header. */
export const IDEMPOTENCY_ARG = 'idempotencyKey';

/**
 * Operations an agent cannot use as they are: the byte transfer of the signed upload
 * flow (create, PUT the bytes, complete). One upload tool takes their place.
 */
export const REPLACED_BY_UPLOAD_TOOL = new Set(['createUpload', 'completeUpload', 'uploadBytes']);

/** Tools that cancel, delete, disable or rotate something: MCP's `destructiveHint`. */
const DESTRUCTIVE = /^(cancel|delete|disable|rotate)[A-Z]/;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], OpenApiOperation>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** The company-key scopes an operation requires (any one), or null for other operations. */
function bearerScopes(op: OpenApiOperation): string[] | null {
  for (const requirement of op.security ?? []) {
    const scopes = requirement.bearerAuth;
    if (scopes && scopes.length > 0) return scopes;
  }
  return null;
}

function jsonSchemaOf(
  part: { content?: Record<string, { schema?: JsonSchema }> } | undefined,
): JsonSchema | undefined {
  return part?.content?.['application/json']?.schema;
}

function isObjectSchema(schema: JsonSchema): schema is JsonSchema & { type: 'object' } {
  return schema.type === 'object';
}

/** The one success schema of an operation, when every 2xx answer has the same object body. */
function outputSchemaOf(
  op: OpenApiOperation,
  resolve: (s: JsonSchema) => JsonSchema,
): (JsonSchema & { type: 'object' }) | undefined {
  const successes = Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith('2'));
  const schemas = successes.map(([, response]) => jsonSchemaOf(response));
  const first = schemas[0];
  if (!first || schemas.some((s) => JSON.stringify(s) !== JSON.stringify(first))) return undefined;
  const resolved = resolve(first);
  return isObjectSchema(resolved) ? resolved : undefined;
}

function annotationsOf(method: ToolRoute['method'], name: string, title?: string) {
  const annotations: ToolAnnotations = title ? { title } : {};
  if (method === 'GET') {
    return { ...annotations, readOnlyHint: true, openWorldHint: false };
  }
  // MCP takes a write to be destructive unless told otherwise, so say it either way.
  return {
    ...annotations,
    readOnlyHint: false,
    destructiveHint: DESTRUCTIVE.test(name),
    idempotentHint: method === 'PUT' || method === 'PATCH' || method === 'DELETE',
    openWorldHint: false,
  };
}

/** One tool per /v2 operation of the document that a company API key can call. */
export function toolsOfDocument(doc: OpenApiDocument): ToolSpec[] {
  const components = doc.components?.schemas ?? {};
  const resolve = (schema: JsonSchema) => inlineRefs(schema, components);
  const tools: ToolSpec[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/v2/')) continue;
    for (const lower of METHODS) {
      const op = item[lower];
      const scopes = op ? bearerScopes(op) : null;
      if (!op?.operationId || !scopes || REPLACED_BY_UPLOAD_TOOL.has(op.operationId)) continue;
      tools.push(toolOf(path, lower.toUpperCase() as ToolRoute['method'], op, scopes, resolve));
    }
  }
  return tools;
}

function toolOf(
  path: string,
  method: ToolRoute['method'],
  op: OpenApiOperation,
  scopes: string[],
  resolve: (s: JsonSchema) => JsonSchema,
): ToolSpec {
  const name = op.operationId as string;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (key: string, schema: JsonSchema, isRequired: boolean) => {
    // Two parts of one operation naming the same field would make its arguments ambiguous.
    if (key in properties) throw new Error(`${name}: the argument "${key}" is named twice`);
    properties[key] = schema;
    if (isRequired) required.push(key);
  };
  const route: ToolRoute = {
    method,
    path,
    pathParams: [],
    queryParams: [],
    idempotencyArg: null,
    body: 'none',
  };
  for (const p of op.parameters ?? []) {
    const schema = resolve({
      ...p.schema,
      ...(p.description ? { description: p.description } : {}),
    });
    if (p.in === 'path') {
      route.pathParams.push(p.name);
      add(p.name, schema, true);
    } else if (p.in === 'query') {
      route.queryParams.push(p.name);
      add(p.name, schema, p.required === true);
    } else if (p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') {
      route.idempotencyArg = IDEMPOTENCY_ARG;
      add(IDEMPOTENCY_ARG, schema, false);
    }
  }
  const bodySchema = jsonSchemaOf(op.requestBody);
  const bodyNotes: string[] = [];
  if (bodySchema) {
    const body = resolve(bodySchema);
    if (!isObjectSchema(body) || !body.properties || body.anyOf || body.oneOf || body.allOf) {
      throw new Error(`${name}: its body is not an object of named fields`);
    }
    route.body = 'fields';
    const bodyRequired = op.requestBody?.required !== false;
    const requiredFields = new Set(Array.isArray(body.required) ? body.required : []);
    for (const [key, schema] of Object.entries(body.properties as Record<string, JsonSchema>)) {
      add(key, schema, bodyRequired && requiredFields.has(key));
    }
    if (typeof body.description === 'string') bodyNotes.push(body.description);
  }
  const description = [op.summary, op.description, ...bodyNotes]
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .filter((s, i, all) => all.indexOf(s) === i)
    .join('\n\n');
  const outputSchema = outputSchemaOf(op, resolve);
  return {
    name,
    ...(op.summary ? { title: op.summary } : {}),
    description,
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    ...(outputSchema ? { outputSchema } : {}),
    annotations: annotationsOf(method, name, op.summary),
    scopes,
    route,
  };
}
