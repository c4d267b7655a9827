// A few calls at a time: enough to hide each call's latency, few enough that one command
// line never floods the service (or its company's rate limits).

/** `fn` over every item, at most `limit` at once; the results in the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * `fn` over a stream of items with at most `limit` calls in flight, yielded in the
 * stream's order: memory stays bounded by `limit`, however long the stream.
 */
export async function* mapOrdered<T, R>(
  source: AsyncIterable<T>,
  limit: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R, void, undefined> {
  const pending: Promise<R>[] = [];
  const start = (item: T) => {
    const promise = fn(item);
    // Awaited in order below; until then a rejection must not count as unhandled.
    promise.catch(() => undefined);
    pending.push(promise);
  };
  for await (const item of source) {
    start(item);
    if (pending.length >= limit) yield await (pending.shift() as Promise<R>);
  }
  while (pending.length > 0) yield await (pending.shift() as Promise<R>);
}
