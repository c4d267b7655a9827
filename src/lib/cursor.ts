// Opaque, tamper-evident keyset cursors (SPEC 8, DECISIONS 7): the payload
// holds the sort key of the last row; an HMAC binds it to the company, the
// list and its filters, so a cursor is only good for the query it came from.
import { fromBase64Url, hmac, safeEqual, toBase64Url } from './crypto.ts';
import { ApiError } from '../errors.ts';

/** Cursors stay valid for a day; a list walk longer than that starts again. */
const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;

export type CursorKey = (string | number)[];

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(scope: string, key: CursorKey, now: Date): string {
    const payload = toBase64Url(JSON.stringify({ k: key, e: now.getTime() + CURSOR_TTL_MS }));
    return `${payload}.${this.sign(scope, payload)}`;
  }

  /** Returns the sort key, or throws `invalid_cursor`. */
  decode(scope: string, cursor: string, now: Date, arity: number): CursorKey {
    const invalid = () =>
      new ApiError('invalid_cursor', 'query parameter cursor is not a cursor issued for this list');
    const dot = cursor.indexOf('.');
    if (dot <= 0 || cursor.length > 2048) throw invalid();
    const payload = cursor.slice(0, dot);
    // Compare the text, not decoded bytes: base64url decoding drops the low bits of the
    // last character, so a second spelling of a valid signature would pass.
    const sig = Buffer.from(cursor.slice(dot + 1));
    if (!safeEqual(sig, Buffer.from(this.sign(scope, payload)))) throw invalid();
    let parsed: unknown;
    try {
      parsed = JSON.parse((fromBase64Url(payload) as Buffer).toString('utf8'));
    } catch {
      throw invalid();
    }
    const { k, e } = (parsed ?? {}) as { k?: unknown; e?: unknown };
    if (
      !Array.isArray(k) ||
      k.length !== arity ||
      !k.every((v) => typeof v === 'string' || typeof v === 'number') ||
      typeof e !== 'number'
    ) {
      throw invalid();
    }
    if (e < now.getTime()) {
      throw new ApiError('invalid_cursor', 'query parameter cursor has expired', {
        hint: 'Start the list again without a cursor.',
      });
    }
    return k;
  }

  private sign(scope: string, payload: string): string {
    return toBase64Url(hmac(this.secret, `cursor\n${scope}\n${payload}`));
  }
}

/**
 * A canonical text form of a list's identity: company, list name and filters.
 * JSON quotes every value, so no filter value can spell a separator and make two
 * different filter sets share a scope (and a cursor).
 */
export function cursorScope(
  companyId: string,
  list: string,
  filters: Record<string, unknown>,
): string {
  const pairs = Object.keys(filters)
    .sort()
    .filter((k) => filters[k] !== undefined && filters[k] !== null)
    .map((k) => [k, String(filters[k])]);
  return JSON.stringify([companyId, list, pairs]);
}
