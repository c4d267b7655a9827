// Row types of the tables of people and what they did: workers, company users, operators,
// their sessions, sign-in links and attempts, the activity and operator logs (types.ts has
// the conventions and the Database that names them).

/** A worker operating accounts (DECISIONS 6); the token is stored only as a digest. */
export interface WorkersTable {
  id: string;
  name: string;
  timezone: string;
  token_prefix: string;
  token_hash: string;
  simulated: number;
  created_at: string;
  updated_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}

export type UserRole = 'admin' | 'editor' | 'viewer';

export interface UsersTable {
  id: string;
  company_id: string;
  email: string;
  role: UserRole;
  password_hash: string;
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  last_sign_in_at: string | null;
  /** The display timezone the user chose (IANA); null: the browser's, else UTC. */
  timezone: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  company_id: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A worker signed in on the workers' page; the id is the digest of the cookie's secret. */
export interface WorkerSessionsTable {
  id: string;
  worker_id: string;
  token_prefix: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A one-time sign-in link of the workers' app; the id is the digest of its token. */
export interface WorkerSignInLinksTable {
  id: string;
  worker_id: string;
  /** The worker's token when the link was made: rotating the token voids the link. */
  token_prefix: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SignInAttemptsTable {
  key: string;
  window_start: string;
  failures: number;
}

export interface ActivityLogTable {
  id: string;
  company_id: string;
  actor: string;
  actor_label: string;
  action: string;
  target: string;
  detail: string | null;
  at: string;
}

/** The service's own staff (operator console); bound to no company. */
export interface OperatorsTable {
  id: string;
  /** Lower-cased. */
  email: string;
  name: string;
  /** argon2id; null until set through a one-time sign-in link. */
  password_hash: string | null;
  /** The TOTP secret (base32), sealed (lib/seal.ts). */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  /** Time step of the last TOTP code accepted (no code is accepted twice). */
  totp_last_step: number | null;
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  last_sign_in_at: string | null;
}

/** An operator's single-use recovery code, stored as its digest. */
export interface OperatorRecoveryCodesTable {
  id: string;
  operator_id: string;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export type OperatorSessionStep = 'password' | 'enrol' | 'full';

/** An operator signed in to the console; the id is the digest of the cookie's secret. */
export interface OperatorSessionsTable {
  id: string;
  operator_id: string;
  step: OperatorSessionStep;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** Why a one-time sign-in link was made (migration 0024). */
export type LinkPurpose = 'invite' | 'recover';

/** A one-time sign-in link of an operator; the id is the digest of its token. */
export interface OperatorLinksTable {
  id: string;
  operator_id: string;
  /** `invite` starts the operator over; `recover` sets a new password only. */
  purpose: LinkPurpose;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A one-time sign-in link of a company user (an invitation); the id is its token's digest. */
export interface UserLinksTable {
  id: string;
  user_id: string;
  company_id: string;
  /** `invite` for an invitation or an admin's reset; `recover` for a forgotten password. */
  purpose: LinkPurpose;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** What operators did; `company_id` when the action touched a company. */
export interface OperatorLogTable {
  id: string;
  /** Null for the admin CLI. */
  operator_id: string | null;
  actor_label: string;
  action: string;
  company_id: string | null;
  target: string;
  /** JSON object. */
  details: string;
  created_at: string;
}

/** A message to a person waiting in the outbox, sent, or failed for good. */
export interface OutboxMessagesTable {
  id: string;
  /** The company it concerns; null for the operator side's messages. */
  company_id: string | null;
  /** `email`, `push` (recipient: a push subscription) or `chat` (recipient: a chat hook). */
  channel: string;
  /** Why it was sent: `invite`, `password_reset`, `approval_reminder`, ... */
  kind: string;
  /** The address it goes to. */
  recipient: string;
  /** Written at most once per key; null where a message may repeat. */
  dedupe_key: string | null;
  subject: string;
  body_text: string;
  body_html: string | null;
  /** Extra headers as a JSON object (List-Unsubscribe and its one-click POST). */
  headers: string | null;
  /** `waiting`, `sent` or `failed`. */
  status: string;
  created_at: string;
  /** Not claimed before this (a retry's backoff). */
  due_at: string;
  /** Claims so far, including the one under way. */
  attempts: number;
  lease_owner: string | null;
  lease_until: string | null;
  sent_at: string | null;
  /** What the last failed attempt said (the SMTP answer, or why none came). */
  last_error: string | null;
}

/** A Web Push subscription of a worker's or a company user's device (migration 0026). */
export interface PushSubscriptionsTable {
  id: string;
  audience: 'worker' | 'user';
  owner_id: string;
  company_id: string | null;
  endpoint: string;
  p256dh: string;
  auth: string;
  expiration_time: string | null;
  created_at: string;
  updated_at: string;
}

/** An incoming-webhook URL of a chat app that alerts are sent to (migration 0027). */
export interface ChatHooksTable {
  id: string;
  /** The company's hook; null for the operator side's. */
  company_id: string | null;
  label: string;
  /** The URL, sealed (lib/seal.ts): it carries the receiver's secret. */
  url_sealed: string;
  /** The host and the URL's last 4 characters, for pages. */
  url_hint: string;
  /** JSON array of alert kinds. */
  kinds: string;
  failing_since: string | null;
  last_error: string | null;
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface NoticeMarksTable {
  /** What was told about: a queue item's id. */
  subject_id: string;
  kind: string;
  /** The occasion it was told for (the window start), so the next one is told again. */
  occasion: string;
  company_id: string | null;
  created_at: string;
}

export interface NotifyOptOutsTable {
  audience: 'user' | 'operator' | 'worker';
  owner_id: string;
  kind: string;
  channel: 'email' | 'push';
  created_at: string;
}

/** A person's "send me these" for a kind that is off unless turned on (migration 0030). */
export interface NotifyOptInsTable {
  audience: 'user' | 'operator' | 'worker';
  owner_id: string;
  kind: string;
  channel: 'email' | 'push';
  created_at: string;
}

/** A person's quiet hours, local HH:MM (migration 0030); no row: none. */
export interface NotifyQuietHoursTable {
  audience: 'user' | 'operator' | 'worker';
  owner_id: string;
  quiet_start: string;
  quiet_end: string;
  /** The zone they are read in when the person has none of their own. */
  timezone: string | null;
  updated_at: string;
}
