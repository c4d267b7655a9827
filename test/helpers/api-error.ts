// Assertions on the error envelope (SPEC 7, DECISIONS 1): status, code, a
// message naming the field, a non-empty hint and the request id echoed in the
// X-Request-Id header.
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call } from './app.ts';
import { DEFAULT_PLANS, type Plan } from '../../src/plans.ts';

export interface ExpectedError {
  /** The message must start with this text (a JSON pointer for body fields). */
  startsWith?: string;
  /** The message must contain this text or match this pattern. */
  includes?: string | RegExp;
}

export function assertApiError(
  res: Call,
  status: number,
  code: string,
  expected: ExpectedError = {},
): void {
  const shown = `${res.status} ${JSON.stringify(res.body)}`;
  assert.equal(res.status, status, `expected ${status} ${code}, got ${shown}`);
  const error = res.body?.error;
  assert.ok(error, `no error envelope in ${shown}`);
  assert.deepEqual(Object.keys(error).sort(), ['code', 'hint', 'message', 'requestId'], shown);
  assert.equal(error.code, code, shown);
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0, 'message is empty');
  assert.equal(typeof error.hint, 'string');
  assert.ok(error.hint.trim().length > 0, 'hint is empty');
  assert.equal(typeof error.requestId, 'string');
  assert.equal(error.requestId, res.headers['x-request-id']);
  if (expected.startsWith !== undefined) {
    assert.ok(
      error.message.startsWith(expected.startsWith),
      `message ${JSON.stringify(error.message)} should start with ${JSON.stringify(expected.startsWith)}`,
    );
  }
  if (typeof expected.includes === 'string') {
    assert.ok(
      error.message.includes(expected.includes),
      `message ${JSON.stringify(error.message)} should name ${JSON.stringify(expected.includes)}`,
    );
  } else if (expected.includes) {
    assert.match(error.message, expected.includes);
  }
}

/** `invalid_request` for a body field: the message starts with its JSON pointer. */
export function assertInvalidBody(res: Call, pointer: string): void {
  assertApiError(res, 400, 'invalid_request', { startsWith: `${pointer} ` });
}

/**
 * Writes a plan table (DEFAULT_PLANS plus `extra`) to a fresh temp file for
 * PLANS_FILE and returns its path. Synchronous so a suite can call it while
 * it is being declared.
 */
export function writePlansFile(extra: Record<string, Plan>): string {
  const dir = mkdtempSync(join(tmpdir(), 'slotline-plans-'));
  const path = join(dir, 'plans.json');
  writeFileSync(path, JSON.stringify({ ...DEFAULT_PLANS, ...extra }));
  return path;
}

/** A plan with generous limits, to override one field at a time. */
export function planWith(overrides: Partial<Plan>): Plan {
  return { ...(DEFAULT_PLANS.starter as Plan), ...overrides };
}

/** Seconds from `iso` to the next UTC midnight. */
export function secondsToMidnight(iso: string): number {
  const at = new Date(iso);
  const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
  return Math.ceil((next - at.getTime()) / 1000);
}
