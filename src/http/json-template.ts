// JSON response bodies with holes: a route's own response serializer writes a
// body once, with a placeholder where each per-request value goes (a signed
// URL, a time-dependent count, a cursor), and later requests fill the holes
// instead of serializing the whole document again. The bytes are those the
// serializer would write for the filled-in values.
//
// Holes are found by their keys. With every object of a response schema closed
// to other properties, `"key":` outside a string can only be that key: inside a
// string, every quote is escaped, and a string followed by a colon is a key.
//
// Nothing here knows a framework: read-cache.ts puts templates to use in routes.

export interface JsonTemplate {
  /** UTF-8 text around the holes: one more part than holes. */
  readonly parts: readonly Buffer[];
}

/**
 * A value of a hole: text, a number or null, written as the serializer writes
 * it, or a Buffer holding JSON text already (for values repeated across
 * requests, such as a URL signed for the current second).
 */
export type HoleValue = string | number | null | Buffer;

/**
 * The template of `json`, whose every `"<key>":` for a key in `holes` is
 * followed by that key's placeholder (its JSON text, such as `null` or `0`).
 * Throws unless there are exactly `expected` holes.
 */
export function makeTemplate(
  json: string,
  holes: Readonly<Record<string, string>>,
  expected: number,
): JsonTemplate {
  const found: { at: number; end: number }[] = [];
  for (const [key, placeholder] of Object.entries(holes)) {
    const marker = `"${key}":`;
    for (let i = json.indexOf(marker); i !== -1; i = json.indexOf(marker, i + 1)) {
      const at = i + marker.length;
      if (!json.startsWith(placeholder, at)) {
        throw new Error(`json template: ${key} does not hold its placeholder`);
      }
      found.push({ at, end: at + placeholder.length });
    }
  }
  if (found.length !== expected) {
    throw new Error(`json template: expected ${expected} holes, found ${found.length}`);
  }
  found.sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  let from = 0;
  for (const hole of found) {
    parts.push(Buffer.from(json.slice(from, hole.at)));
    from = hole.end;
  }
  parts.push(Buffer.from(json.slice(from)));
  return { parts };
}

/** Bytes a template holds, for bounding what is kept of them. */
export function templateBytes(template: JsonTemplate): number {
  let n = 0;
  for (const part of template.parts) n += part.length;
  return n;
}

/**
 * JSON text of a hole's value as the response serializer writes it: strings as
 * JSON.stringify does (fast-json-stringify's escaping is the same), finite
 * numbers in their shortest form, anything else as null.
 */
export function holeJson(value: string | number | null): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? `${value}` : 'null';
  return JSON.stringify(value);
}

const NULL = Buffer.from(holeJson(null));
const SMALL_INTS = Array.from({ length: 64 }, (_, i) => Buffer.from(holeJson(i)));

/** The JSON text of a hole's value; null and small counts share one Buffer each. */
export function encodeHole(value: HoleValue): Buffer {
  if (value === null) return NULL;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 64) {
    return SMALL_INTS[value] as Buffer;
  }
  return Buffer.from(holeJson(value));
}

/** The body: the template with its holes filled in order. */
export function fill(template: JsonTemplate, values: readonly HoleValue[]): Buffer {
  const { parts } = template;
  if (values.length !== parts.length - 1) {
    throw new Error(`json template: ${parts.length - 1} holes, ${values.length} values`);
  }
  // A body without holes is the same for every request: shared, not copied.
  if (parts.length === 1) return parts[0] as Buffer;
  const chunks: Buffer[] = new Array<Buffer>(parts.length * 2 - 1);
  let first = parts[0] as Buffer;
  chunks[0] = first;
  let length = first.length;
  for (let i = 0; i < values.length; i++) {
    const value = encodeHole(values[i] as HoleValue);
    first = parts[i + 1] as Buffer;
    chunks[2 * i + 1] = value;
    chunks[2 * i + 2] = first;
    length += value.length + first.length;
  }
  return Buffer.concat(chunks, length);
}
