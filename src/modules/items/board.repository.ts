// The operator's fulfilment board, across companies: released tasks nobody claimed, claimed
// ones by their report deadline, and recent failures. Each section reads a bounded range of
// the (status, released_at) index, so it costs the same with a million delivered items.
import type { DbOrTx } from '../../db/types.ts';

export interface BoardFilter {
  companyId?: string;
  workerId?: string;
}

export interface BoardRow {
  id: string;
  post_id: string;
  company_id: string;
  company_name: string;
  account_id: string;
  username: string;
  platform: string;
  worker_id: string | null;
  worker_name: string | null;
  claimed_by: string | null;
  released_at: string;
  claimed_at: string | null;
  updated_at: string;
  failure_reason: string | null;
  caption: string | null;
}

export type BoardSection = 'unclaimed' | 'claimed' | 'unconfirmed' | 'failed';

/** The items in view: of one company, or of the accounts one worker operates or its claims. */
function base(db: DbOrTx, filter: BoardFilter) {
  let q = db.selectFrom('queue_items');
  if (filter.companyId) q = q.where('queue_items.company_id', '=', filter.companyId);
  if (filter.workerId) {
    const worker = filter.workerId;
    q = q.where((eb) =>
      eb.or([
        eb(
          'queue_items.account_id',
          'in',
          eb.selectFrom('accounts').select('accounts.id').where('accounts.worker_id', '=', worker),
        ),
        eb('queue_items.claimed_by', '=', worker),
      ]),
    );
  }
  return q;
}

type BoardQuery = ReturnType<typeof base>;

function inSection(
  q: BoardQuery,
  section: BoardSection,
  since: string,
  unconfirmedReason: string,
): BoardQuery {
  switch (section) {
    case 'unclaimed':
      return q
        .where('queue_items.status', '=', 'posting')
        .where('queue_items.claimed_at', 'is', null);
    case 'claimed':
      return q
        .where('queue_items.status', '=', 'posting')
        .where('queue_items.claimed_at', 'is not', null);
    case 'unconfirmed':
      return q
        .where('queue_items.status', '=', 'failed')
        .where('queue_items.released_at', '>=', since)
        .where('queue_items.failure_reason', '=', unconfirmedReason);
    case 'failed':
      return q
        .where('queue_items.status', '=', 'failed')
        .where('queue_items.released_at', '>=', since)
        .where((eb) =>
          eb.or([
            eb('queue_items.failure_reason', 'is', null),
            eb('queue_items.failure_reason', '!=', unconfirmedReason),
          ]),
        );
  }
}

/**
 * One section of the board, oldest first (claimed ones by claim, which orders them by report
 * deadline), at most `limit` rows, with the section's whole count.
 */
export async function boardSection(
  db: DbOrTx,
  section: BoardSection,
  filter: BoardFilter,
  opts: { since: string; unconfirmedReason: string; limit: number },
): Promise<{ count: number; rows: BoardRow[] }> {
  const scoped = () => inSection(base(db, filter), section, opts.since, opts.unconfirmedReason);
  const order = section === 'claimed' ? 'queue_items.claimed_at' : 'queue_items.released_at';
  const [rows, count] = await Promise.all([
    scoped()
      .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
      .innerJoin('companies', 'companies.id', 'queue_items.company_id')
      .innerJoin('posts', 'posts.id', 'queue_items.post_id')
      .leftJoin('workers', 'workers.id', 'accounts.worker_id')
      .select([
        'queue_items.id',
        'queue_items.post_id',
        'queue_items.company_id',
        'companies.name as company_name',
        'queue_items.account_id',
        'accounts.username',
        'accounts.platform',
        'accounts.worker_id',
        'workers.name as worker_name',
        'queue_items.claimed_by',
        'queue_items.released_at',
        'queue_items.claimed_at',
        'queue_items.updated_at',
        'queue_items.failure_reason',
        'posts.caption',
      ])
      .orderBy(order, section === 'failed' || section === 'unconfirmed' ? 'desc' : 'asc')
      .orderBy('queue_items.id')
      .limit(opts.limit)
      .execute(),
    scoped()
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { count: Number(count.n), rows: rows as BoardRow[] };
}
