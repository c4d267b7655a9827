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

/**
 * Writes a body from its template, filling the holes in order: each value's
 * JSON text goes between the parts around its hole, with no list of values
 * made first.
 */
export class BodyWriter {
  private readonly parts: readonly Buffer[];
  private readonly chunks: Buffer[];
  private length: number;
  /** Holes filled so far. */
  protected filled = 0;

  constructor(template: JsonTemplate) {
    this.parts = template.parts;
    const first = this.parts[0] as Buffer;
    this.chunks = new Array<Buffer>(this.parts.length * 2 - 1);
    this.chunks[0] = first;
    this.length = first.length;
  }

  /** Fills the next hole. */
  write(value: HoleValue): void {
    this.writeJson(encodeHole(value));
  }

  /** Fills the next hole with JSON text. */
  writeJson(json: Buffer): void {
    const i = ++this.filled;
    const after = this.parts[i];
    if (after === undefined) throw new Error(`json template: ${this.parts.length - 1} holes`);
    this.chunks[2 * i - 1] = json;
    this.chunks[2 * i] = after;
    this.length += json.length + after.length;
  }

  /** The body, once every hole is filled. */
  finish(): Buffer {
    const holes = this.parts.length - 1;
    if (this.filled !== holes) {
      throw new Error(`json template: ${holes} holes, ${this.filled} values`);
    }
    // A body without holes is the same for every request: shared, not copied.
    if (holes === 0) return this.chunks[0] as Buffer;
    return Buffer.concat(this.chunks, this.length);
  }
}

/** The body: the template with its holes filled in order. */
export function fill(template: JsonTemplate, values: readonly HoleValue[]): Buffer {
  const holes = template.parts.length - 1;
  if (values.length !== holes) {
    throw new Error(`json template: ${holes} holes, ${values.length} values`);
  }
  const out = new BodyWriter(template);
  for (const value of values) out.write(value);
  return out.finish();
}
