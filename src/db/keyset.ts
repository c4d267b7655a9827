// Keyset pages, shared by every list ordered by a time column and then `id`: rows after
// the (time, id) of the last row seen (before it, newest first), at most `limit` of them,
// so a deep page is an index range seek as cheap as the first. A prepared query
// (prepared.ts) pages with placeholders (`keysetParams`, bound by `keysetValues`); a
// query built per call passes the values themselves.
import { sql, type SelectQueryBuilder, type StringReference } from 'kysely';
import { param } from './prepared.ts';

/** The order of a list: its time column (`created_at`) and id column (`id`), qualified when the query joins. */
export interface KeysetOrder<DB, TB extends keyof DB> {
  time?: StringReference<DB, TB>;
  id?: StringReference<DB, TB>;
  /** Newest first: a page goes on with the rows before the last one seen. */
  desc?: boolean;
}

/** Where a page starts and how long it is: values, or the placeholders of `keysetParams`. */
export interface KeysetBounds {
  /** The (time, id) of the last row seen; none on the first page. */
  after?: readonly [unknown, unknown] | null;
  limit: unknown;
}

/** The page condition, order and limit. */
export function keysetPage<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  page: KeysetBounds,
  order: KeysetOrder<DB, TB> = {},
): SelectQueryBuilder<DB, TB, O> {
  const time = sql.ref(order.time ?? 'created_at');
  const id = sql.ref(order.id ?? 'id');
  if (page.after) {
    const [at, afterId] = page.after;
    const op = sql.raw(order.desc ? '<' : '>');
    q = q.where(sql<boolean>`(${time}, ${id}) ${op} (${at}, ${afterId})`);
  }
  q = order.desc ? q.orderBy(time, 'desc').orderBy(id, 'desc') : q.orderBy(time).orderBy(id);
  return q.limit(sql<number>`${page.limit}`);
}

/** The placeholders of a prepared page; `withAfter` for pages after the first. */
export function keysetParams(withAfter: boolean): KeysetBounds {
  return {
    after: withAfter ? [param('afterAt'), param('afterId')] : null,
    limit: param('limit'),
  };
}

/** Values of the keyset placeholders: the last row seen (or none) and the limit. */
export function keysetValues(opts: { after?: readonly [string, string]; limit: number }) {
  return { afterAt: opts.after?.[0], afterId: opts.after?.[1], limit: opts.limit };
}
