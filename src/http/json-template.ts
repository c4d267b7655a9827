// JSON response bodies with holes: a route's own response serializer writes a
// body once, with a placeholder where each per-request value goes (a signed
// URL, a time-dependent count, a cursor), and later requests fill the holes
// instead of serializing the whole document again. The bytes are those the
// serializer would write for the filled-in values.
//
// Holes are found by their keys. With every object of a response schema closed
// to other properties, `"key":` outside a string can only be that key: inside a
// string, every quote is escaped, and a string followed by a colon is a key.
import type { FastifyReply } from 'fastify';

export interface JsonTemplate {
  /** Text around the holes: one more part than holes. */
  readonly parts: readonly string[];
}

/** A value of a hole: text, a number or null, written as the serializer writes it. */
export type HoleValue = string | number | null;

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
  const parts: string[] = [];
  let from = 0;
  for (const hole of found) {
    parts.push(json.slice(from, hole.at));
    from = hole.end;
  }
  parts.push(json.slice(from));
  return { parts };
}

/**
 * JSON text of a hole's value as the response serializer writes it: strings as
 * JSON.stringify does (fast-json-stringify's escaping is the same), finite
 * numbers in their shortest form, anything else as null.
 */
export function holeJson(value: HoleValue): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? `${value}` : 'null';
  return JSON.stringify(value);
}

/** The template with its holes filled in order. */
export function fill(template: JsonTemplate, values: readonly HoleValue[]): string {
  const { parts } = template;
  if (values.length !== parts.length - 1) {
    throw new Error(`json template: ${parts.length - 1} holes, ${values.length} values`);
  }
  let out = parts[0] as string;
  for (let i = 0; i < values.length; i++) {
    out += holeJson(values[i] as HoleValue) + (parts[i + 1] as string);
  }
  return out;
}

/** The route's serializer for its 200 response. */
export function okSerializer(reply: FastifyReply): (payload: unknown) => string {
  const serialize = reply.getSerializationFunction('200');
  if (!serialize) throw new Error('route has no 200 response schema');
  return serialize as (payload: unknown) => string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends text that is already the JSON body, as the serializer would have. */
export function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.header('content-type', JSON_TYPE).send(body);
}
