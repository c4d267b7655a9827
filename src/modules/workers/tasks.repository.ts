import type { DbOrTx } from '../../db/types.ts';

/** A released item with what its worker needs to post it: the post and the account. */
export async function findTasks(db: DbOrTx, itemIds: readonly string[]) {
  if (itemIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .innerJoin('posts', 'posts.id', 'queue_items.post_id')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .select([
      'queue_items.id',
      'queue_items.company_id',
      'queue_items.post_id',
      'queue_items.account_id',
      'queue_items.status',
      'queue_items.released_at',
      'queue_items.claimed_at',
      'queue_items.claimed_by',
      'queue_items.posted_at',
      'queue_items.post_url',
      'queue_items.failure_reason',
      'accounts.platform',
      'accounts.username',
      'accounts.worker_id',
      'posts.caption',
      'posts.hashtags',
      'posts.sound',
      'posts.platformb_post_format',
      'posts.media_kind',
      'posts.media_upload_ids',
      'posts.media_keys',
      'posts.slides',
      'posts.thumbnail_key',
      'posts.thumbnail_upload_id',
    ])
    .where('queue_items.id', 'in', [...itemIds])
    .where('queue_items.released_at', 'is not', null)
    .orderBy('queue_items.released_at')
    .orderBy('queue_items.id')
    .execute();
}
export type TaskRow = Awaited<ReturnType<typeof findTasks>>[number];

/**
 * Ids of a worker's open (released, unreported) tasks, oldest release first, after the
 * (released_at, id) of the last one seen: the unclaimed tasks of the accounts it operates
 * and the tasks it claimed itself (even of an account since moved to another worker).
 * `claimed` narrows to one of the two.
 */
export async function openTaskIds(
  db: DbOrTx,
  workerId: string,
  opts: { claimed?: boolean; after?: [string, string]; limit: number },
): Promise<string[]> {
  let q = db
    .selectFrom('queue_items')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .select(['queue_items.id'])
    .where('queue_items.status', '=', 'posting')
    .where((eb) => {
      const released = eb.and([
        eb('queue_items.claimed_at', 'is', null),
        eb('accounts.worker_id', '=', workerId),
      ]);
      const claimed = eb('queue_items.claimed_by', '=', workerId);
      if (opts.claimed === undefined) return eb.or([released, claimed]);
      return opts.claimed ? claimed : released;
    });
  const after = opts.after;
  if (after) {
    q = q.where((eb) =>
      eb(
        eb.refTuple('queue_items.released_at', 'queue_items.id'),
        '>',
        eb.tuple(after[0], after[1]),
      ),
    );
  }
  const rows = await q
    .orderBy('queue_items.released_at')
    .orderBy('queue_items.id')
    .limit(opts.limit)
    .execute();
  return rows.map((r) => r.id);
}

/** How many tasks wait for a claim on the worker's accounts, and how many it claimed. */
export async function openTaskCounts(
  db: DbOrTx,
  workerId: string,
): Promise<{ released: number; claimed: number }> {
  const [released, claimed] = await Promise.all([
    db
      .selectFrom('queue_items')
      .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('queue_items.status', '=', 'posting')
      .where('queue_items.claimed_at', 'is', null)
      .where('accounts.worker_id', '=', workerId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('queue_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('queue_items.status', '=', 'posting')
      .where('queue_items.claimed_by', '=', workerId)
      .executeTakeFirstOrThrow(),
  ]);
  return { released: Number(released.n), claimed: Number(claimed.n) };
}

/** An account the worker operates, or undefined. */
export async function findWorkerAccount(db: DbOrTx, workerId: string, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'company_id'])
    .where('id', '=', accountId)
    .where('worker_id', '=', workerId)
    .executeTakeFirst();
}

/** Content type and SHA-256 of each upload a task's media is made of. */
export async function uploadFacts(db: DbOrTx, ids: readonly string[]) {
  type Facts = { content_type: string; sha256: string | null };
  if (ids.length === 0) return new Map<string, Facts>();
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'content_type', 'sha256'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map<string, Facts>(rows.map((r) => [r.id, r]));
}

export async function touchWorker(db: DbOrTx, workerId: string, at: string): Promise<void> {
  await db.updateTable('workers').set({ last_seen_at: at }).where('id', '=', workerId).execute();
}

/** lastPostAt of an account moves forward only. */
export async function notePosted(
  db: DbOrTx,
  accountId: string,
  postedAt: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ last_post_at: postedAt, updated_at: at })
    .where('id', '=', accountId)
    .where((eb) => eb.or([eb('last_post_at', 'is', null), eb('last_post_at', '<', postedAt)]))
    .execute();
}
