// Keyset pages in creation order, shared by the lists ordered by (created_at, id):
// rows after the (created_at, id) of the last row seen, at most `limit` of them.
// Conditions and the limit are placeholders of prepared queries (prepared.ts),
// bound by `keysetValues`.
import { sql, type SelectQueryBuilder } from 'kysely';
import { param } from './prepared.ts';
import type { Database } from './types.ts';

/** Tables listed in creation order: their rows carry `created_at` and `id`. */
export type KeysetTable = {
  [T in keyof Database]: Database[T] extends { created_at: string; id: string } ? T : never;
}[keyof Database];

/** The page conditions, order and limit; `withAfter` for pages after the first. */
export function keysetPage<T extends KeysetTable, O>(
  q: SelectQueryBuilder<Database, T, O>,
  withAfter: boolean,
): SelectQueryBuilder<Database, T, O> {
  if (withAfter) {
    q = q.where(
      sql<boolean>`(${sql.ref('created_at')}, ${sql.ref('id')}) > (${param('afterAt')}, ${param('afterId')})`,
    );
  }
  return q
    .orderBy(sql.ref('created_at'))
    .orderBy(sql.ref('id'))
    .limit(sql<number>`${param('limit')}`);
}

/** Values of the keyset placeholders: the last row seen (or none) and the limit. */
export function keysetValues(opts: { after?: readonly [string, string]; limit: number }) {
  return { afterAt: opts.after?.[0], afterId: opts.after?.[1], limit: opts.limit };
}
