// JSON Schemas made self-contained for MCP tools: an MCP client sees one tool's schema
// alone, so every `#/components/schemas/X` reference of the OpenAPI document is replaced
// by a copy of X. Copies lose their `$id` (one schema may hold the same component twice,
// and two equal ids in one schema are an error for validators) and the document's own
// `x-` annotations, which mean nothing outside it.

export type JsonSchema = Record<string, unknown>;

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/** A copy of `schema` with every component reference replaced by the component itself. */
export function inlineRefs(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  return inline(schema, components, []) as JsonSchema;
}

function inline(value: unknown, components: Record<string, JsonSchema>, stack: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => inline(v, components, stack));
  if (value === null || typeof value !== 'object') return value;
  const object = value as JsonSchema;
  const ref = typeof object.$ref === 'string' ? COMPONENT_REF.exec(object.$ref) : null;
  if (ref) {
    const name = ref[1] as string;
    const target = components[name];
    if (!target) throw new Error(`the schema refers to an unknown component ${name}`);
    // The API's schemas are trees; a cycle would make the copy endless.
    if (stack.includes(name)) throw new Error(`the component ${name} refers to itself`);
    const { $ref: _ref, ...siblings } = object;
    const copy = inline(target, components, [...stack, name]) as JsonSchema;
    return { ...copy, ...(inline(siblings, components, stack) as JsonSchema) };
  }
  const out: JsonSchema = {};
  for (const [key, v] of Object.entries(object)) {
    if (key === '$id' || key.startsWith('x-')) continue;
    out[key] = NAMED_SCHEMAS.has(key)
      ? inlineEach(v, components, stack)
      : inline(v, components, stack);
  }
  return out;
}

/** Keywords whose value maps names (fields, which may be called anything) to schemas. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

function inlineEach(value: unknown, components: Record<string, JsonSchema>, stack: string[]) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, schema]) => [name, inline(schema, components, stack)]),
  );
}
