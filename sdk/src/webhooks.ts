// Verifies a webhook delivery the Standard Webhooks 1.0 way: the HMAC-SHA256 of
// `${webhook-id}.${webhook-timestamp}.${body}` under the endpoint's secret, sent base64 in
// `webhook-signature` as `v1,<signature>` (several, space-separated, while a secret is being
// rotated), and a timestamp close to now so that a captured delivery cannot be replayed
// later. The body must be the bytes as received: re-serialised JSON does not verify.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema.ts';

type BodyOf<T> = T extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : never;

/**
 * A verified delivery's payload, `{type, timestamp, data}`: a union over every event type
 * of the service's catalog, so `switch (event.type)` narrows `data`.
 */
export type WebhookEvent = {
  [K in keyof webhooks]: BodyOf<NonNullable<webhooks[K]['post']>>;
}[keyof webhooks];

/** The event types, e.g. `post.item.posted`. */
export type WebhookEventType = WebhookEvent['type'];

export type WebhookVerificationReason =
  | 'missing_headers'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_signature'
  | 'invalid_secret'
  | 'invalid_payload';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** Why the delivery was refused; answer it with a 4xx and do not act on it. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface VerifyWebhookOptions {
  /** How far the delivery's timestamp may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** The current time (tests); defaults to the clock. */
  now?: Date | number;
}

/** Request headers as node:http gives them (any case) or a fetch `Headers`. */
export type WebhookHeaders =
  Headers | Record<string, string | string[] | undefined> | { get(name: string): string | null };

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/**
 * Checks a delivery's signature and age and returns its parsed payload; throws a
 * `WebhookVerificationError` (with a `reason`) when it does not verify.
 * `body` is the raw request body: a string, Buffer or Uint8Array, never parsed JSON.
 */
export function verifyWebhook(
  headers: WebhookHeaders,
  body: string | Uint8Array,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      'missing_headers',
      'webhook-id, webhook-timestamp and webhook-signature are all required',
    );
  }
  const key = secretKey(secret);
  checkTimestamp(timestamp, options);

  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(raw).digest();
  const matches = signatures.split(' ').some((entry) => {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') return false;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) {
    throw new WebhookVerificationError('invalid_signature', 'no v1 signature matches the body');
  }

  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the signed body is not JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new WebhookVerificationError('invalid_payload', 'the signed body is not an object');
  }
  return payload as WebhookEvent;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() !== name) continue;
    const text = Array.isArray(value) ? value.join(' ') : value;
    if (text) return text.trim();
  }
  return undefined;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 === 1) {
    throw new WebhookVerificationError('invalid_secret', 'the secret is not whsec_ + base64');
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) {
    throw new WebhookVerificationError('invalid_secret', 'the secret is empty');
  }
  return key;
}

function checkTimestamp(timestamp: string, options: VerifyWebhookOptions): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  const now = Math.floor(nowMs / 1000);
  if (!/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError('missing_headers', 'webhook-timestamp is not unix seconds');
  }
  const sent = Number(timestamp);
  if (sent < now - tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', 'the delivery is too old');
  }
  if (sent > now + tolerance) {
    throw new WebhookVerificationError('timestamp_too_new', 'the delivery is from the future');
  }
}
