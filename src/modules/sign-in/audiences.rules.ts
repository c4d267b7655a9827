// The three kinds of people who sign in, each to a web app of its own: company users (the
// dashboard), operators (the console) and workers (the workers' app). Their sessions and
// sign-in links are kept apart, each kind in tables of its own, so a secret of one kind can
// never open another kind's app; the digest of each secret is labelled by its kind too.
import type {
  OperatorLinksTable,
  OperatorSessionsTable,
  SessionsTable,
  UserLinksTable,
  WorkerSessionsTable,
  WorkerSignInLinksTable,
} from '../../db/types.ts';

export type Audience = 'user' | 'operator' | 'worker';

/** A session row of each kind. */
export interface SessionRows {
  user: SessionsTable;
  operator: OperatorSessionsTable;
  worker: WorkerSessionsTable;
}

/** A sign-in link row of each kind. */
export interface LinkRows {
  user: UserLinksTable;
  operator: OperatorLinksTable;
  worker: WorkerSignInLinksTable;
}

interface Place {
  sessions: 'sessions' | 'operator_sessions' | 'worker_sessions';
  links: 'user_links' | 'operator_links' | 'worker_sign_in_links';
  /** The column naming the session's or link's owner. */
  owner: 'user_id' | 'operator_id' | 'worker_id';
  /** Labels the digests of cookie secrets and link tokens. */
  sessionLabel: string;
  linkLabel: string;
}

export const PLACES: Record<Audience, Place> = {
  user: {
    sessions: 'sessions',
    links: 'user_links',
    owner: 'user_id',
    sessionLabel: 'session',
    linkLabel: 'user-link',
  },
  operator: {
    sessions: 'operator_sessions',
    links: 'operator_links',
    owner: 'operator_id',
    sessionLabel: 'operator-session',
    linkLabel: 'operator-link',
  },
  worker: {
    sessions: 'worker_sessions',
    links: 'worker_sign_in_links',
    owner: 'worker_id',
    sessionLabel: 'worker-session',
    linkLabel: 'worker-link',
  },
};

// The three tables of a kind share the columns read and written by the repositories, which
// type their builders as the company users' table; the real names come from PLACES.

/** The session table of an audience, typed as the company users' for the query builder. */
export function sessionTable(audience: Audience): 'sessions' {
  return PLACES[audience].sessions as 'sessions';
}

/** The link table of an audience, typed as the company users' for the query builder. */
export function linkTable(audience: Audience): 'user_links' {
  return PLACES[audience].links as 'user_links';
}

/** The owner's column of an audience, typed as the company users' for the query builder. */
export function ownerColumn(audience: Audience): 'user_id' {
  return PLACES[audience].owner as 'user_id';
}
