// The fetch the client sends through: it adds an Idempotency-Key to the creates that
// accept one, and retries what is safe to retry. A 429 was not processed, so any call is
// retried after Retry-After; a network error leaves the outcome unknown, so only calls the
// server deduplicates (reads, PUT/DELETE, keyed creates) are sent again.

export type FetchLike = (input: Request) => Promise<Response>;

export interface RetryOptions {
  /** Sends at most this many times in all (default 4; 1 turns retries off). */
  attempts?: number;
  /** First backoff step for network errors; doubles each attempt (default 200 ms). */
  baseDelayMs?: number;
  /** Ceiling of one backoff wait (default 5 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
}

/** POST operations whose document declares the Idempotency-Key header. */
const KEYED_CREATES = [/^\/v2\/posts$/, /^\/v2\/posts\/[^/]+\/queue$/];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Whether the SDK adds an Idempotency-Key to this call when the caller gave none. */
export function takesIdempotencyKey(method: string, pathname: string): boolean {
  return method === 'POST' && KEYED_CREATES.some((re) => re.test(pathname));
}

/** Milliseconds a Retry-After value asks for (delta-seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function retryingFetch(
  base: FetchLike,
  basePath: string,
  options: RetryOptions = {},
): FetchLike {
  const attempts = Math.max(1, options.attempts ?? 4);
  const baseDelay = options.baseDelayMs ?? 200;
  const maxDelay = options.maxDelayMs ?? 5000;
  const maxRetryAfter = options.maxRetryAfterMs ?? 60_000;

  return async (input) => {
    const url = new URL(input.url);
    const pathname = url.pathname.slice(basePath.length) || '/';
    const headers = new Headers(input.headers);
    if (takesIdempotencyKey(input.method, pathname) && !headers.has('Idempotency-Key')) {
      headers.set('Idempotency-Key', crypto.randomUUID());
    }
    // The body is read once so that every attempt sends the same bytes.
    const body = input.body === null ? null : await input.arrayBuffer();
    const replayable = SAFE_METHODS.has(input.method) || headers.has('Idempotency-Key');
    const build = () =>
      new Request(input.url, {
        method: input.method,
        headers,
        body,
        signal: input.signal,
        redirect: input.redirect,
      });

    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await base(build());
      } catch (err) {
        if (!replayable || attempt >= attempts || input.signal.aborted) throw err;
        // Full jitter: clients that failed together do not come back together.
        await sleep(Math.random() * Math.min(maxDelay, baseDelay * 2 ** (attempt - 1)));
        continue;
      }
      if (response.status !== 429 || attempt >= attempts) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      // A daily cap answers Retry-After to the next UTC midnight: hand that to the caller.
      if (wait !== null && wait > maxRetryAfter) return response;
      await response.body?.cancel();
      const backoff = Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
      await sleep((wait ?? backoff) + Math.random() * baseDelay);
    }
  };
}
