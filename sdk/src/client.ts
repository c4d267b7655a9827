// The Slotline client: openapi-fetch's typed calls over the generated `paths`, with the
// API key sent on every call, errors thrown as SlotlineError, the retrying transport, and
// list endpoints walked as async iterators.
import createFetchClient, { type Client, type MaybeOptionalInit } from 'openapi-fetch';
import { SlotlineError } from './errors.ts';
import { retryingFetch, type FetchLike, type RetryOptions } from './transport.ts';
import type { paths } from './schema.ts';

export interface ClientOptions {
  /** The service's public URL, e.g. `https://slotline.example.com`. */
  baseUrl: string;
  /** A company API key (`Authorization: Bearer ...`). */
  apiKey: string;
  /** A fetch to send through (tests, proxies); defaults to the global one. */
  fetch?: FetchLike;
  retry?: RetryOptions;
}

/** GET paths that page with `cursor` and answer `{ data, nextCursor }`. */
export type ListPath = {
  [P in keyof paths]: paths[P] extends {
    get: {
      parameters: { query?: { cursor?: string } };
      responses: { 200: { content: { 'application/json': { nextCursor: string | null } } } };
    };
  }
    ? P
    : never;
}[keyof paths];

type ListBody<P extends ListPath> =
  paths[P]['get']['responses'][200]['content']['application/json'];
/** One item of a list endpoint's `data`. */
export type ListItem<P extends ListPath> = ListBody<P> extends { data: (infer T)[] } ? T : never;

export type SlotlineClient = Client<paths> & {
  /** Every item of a list endpoint, following `nextCursor` page by page. */
  paginate<P extends ListPath>(
    path: P,
    init?: MaybeOptionalInit<paths[P], 'get'>,
  ): AsyncGenerator<ListItem<P>, void, undefined>;
};

export function createClient(options: ClientOptions): SlotlineClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const base: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const api = createFetchClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(base, new URL(baseUrl).pathname.replace(/\/$/, ''), options.retry),
  });
  api.use({
    async onResponse({ response }) {
      if (!response.ok) throw await SlotlineError.fromResponse(response);
      return undefined;
    },
  });

  async function* paginate<P extends ListPath>(
    path: P,
    init?: MaybeOptionalInit<paths[P], 'get'>,
  ): AsyncGenerator<ListItem<P>, void, undefined> {
    const given = (init ?? {}) as { params?: { query?: Record<string, unknown> } };
    let cursor: string | null = null;
    do {
      const query: Record<string, unknown> = { ...given.params?.query };
      if (cursor !== null) query.cursor = cursor;
      const request = { ...given, params: { ...given.params, query } };
      // The generics of one path do not narrow inside a function over all list paths.
      const { data } = await api.GET(path as never, request as never);
      const page = data as unknown as { data: ListItem<P>[]; nextCursor: string | null };
      yield* page.data;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }

  return Object.assign(api, { paginate });
}
