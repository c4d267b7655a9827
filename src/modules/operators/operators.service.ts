// Operators: the service's own staff, bound to no company. The admin CLI creates one with a
// one-time sign-in link (24 hours, used once); through it the operator chooses a password
// and enrols an authenticator app (TOTP), confirming it with a code, and gets ten recovery
// codes, shown once. `disable` ends the operator's sessions and links at once; `reset`
// clears the password and the second factor and hands out a new link.
import { hash } from '@node-rs/argon2';
import type { Db, DbOrTx, OperatorsTable } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { CliError } from '../../lib/cli-error.ts';
import { passwordProblem } from '../../lib/password-rules.ts';
import type { Sealer } from '../../lib/seal.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  endSessionsOf,
  expireLinksOf,
  issueLink as issueStoredLink,
  liveLink as liveStoredLink,
  useLink,
  LinkRefused,
} from '../sign-in/index.ts';
import { recordOperatorAction, type OperatorActor } from './operator-log.service.ts';
import { openSession, type OperatorSession } from './operator-sessions.service.ts';
import * as repo from './operators.repository.ts';
import * as codes from './recovery-codes.repository.ts';
import { groupedSecret, newTotpSecret, otpauthUri } from './totp.rules.ts';

/** How long a sign-in link stays valid. */
export const OPERATOR_LINK_MS = 24 * 60 * 60 * 1000;
/** Where on the service an operator's sign-in link leads. */
export const OPERATOR_WELCOME_PATH = '/operator/welcome';
/** The longest operator name. */
export const MAX_OPERATOR_NAME = 100;

/** A refusal the operator at the CLI (or the console) can act on. */
export class OperatorAccountError extends CliError {}

export interface OperatorInfo {
  operatorId: string;
  email: string;
  name: string;
  /** `invited`: the sign-in link's steps are not finished; `active`; `disabled`. */
  status: 'invited' | 'active' | 'disabled';
  totpEnabledAt: string | null;
  createdAt: string;
  lastSignInAt: string | null;
  disabledAt: string | null;
}

export function operatorInfo(row: OperatorsTable): OperatorInfo {
  return {
    operatorId: row.id,
    email: row.email,
    name: row.name,
    status: row.disabled_at !== null ? 'disabled' : row.totp_enabled_at ? 'active' : 'invited',
    totpEnabledAt: row.totp_enabled_at,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
    disabledAt: row.disabled_at,
  };
}

/** The operator as the logs name it. */
export function operatorLabel(row: Pick<OperatorsTable, 'name' | 'email'>): string {
  return `${row.name} <${row.email}>`;
}

/** The address of an operator's sign-in link. */
export function operatorWelcomeUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${OPERATOR_WELCOME_PATH}?token=${encodeURIComponent(token)}`;
}

export function normalOperatorEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length < 3 || e.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(e)) {
    throw new OperatorAccountError(`"${email}" is not an email address`);
  }
  return e;
}

/** A sign-in link just made: its token (shown once) and when it stops working. */
export interface IssuedOperatorLink {
  token: string;
  expiresAt: string;
}

async function issueLink(tx: DbOrTx, operatorId: string, now: Date): Promise<IssuedOperatorLink> {
  const { token, row } = await issueStoredLink(
    tx,
    'operator',
    now,
    { operator_id: operatorId },
    { lifetimeMs: OPERATOR_LINK_MS, ownerId: operatorId, replace: true },
  );
  return { token, expiresAt: row.expires_at };
}

function exists(email: string): OperatorAccountError {
  return new OperatorAccountError(`operator ${email} already exists`);
}

/** A new operator and its one-time sign-in link; `name` defaults to the email's local part. */
export async function createOperator(
  db: Db,
  clock: Clock,
  input: { email: string; name?: string },
  actor: OperatorActor,
): Promise<{ operator: OperatorInfo; link: IssuedOperatorLink }> {
  const email = normalOperatorEmail(input.email);
  const name = (input.name ?? email.split('@')[0] ?? email).trim();
  if (name.length < 1 || [...name].length > MAX_OPERATOR_NAME) {
    throw new OperatorAccountError(`name must be 1-${MAX_OPERATOR_NAME} characters`);
  }
  if (await repo.findByEmail(db, email)) throw exists(email);
  const now = clock.now();
  const at = now.toISOString();
  const row: OperatorsTable = {
    id: newId('opr', now.getTime()),
    email,
    name,
    password_hash: null,
    totp_secret: null,
    totp_enabled_at: null,
    totp_last_step: null,
    created_at: at,
    updated_at: at,
    disabled_at: null,
    last_sign_in_at: null,
  };
  try {
    const link = await db.transaction().execute(async (tx) => {
      await repo.insertOperator(tx, row);
      await recordOperatorAction(
        tx,
        actor,
        { action: 'operator.created', target: row.id, details: { email, name } },
        now,
      );
      return issueLink(tx, row.id, now);
    });
    return { operator: operatorInfo(row), link };
  } catch (err) {
    // Created by someone else since the check above.
    if (isUniqueViolation(err)) throw exists(email);
    throw err;
  }
}

export async function listOperators(db: Db): Promise<OperatorInfo[]> {
  return (await repo.listOperators(db)).map(operatorInfo);
}

async function operatorByEmail(db: DbOrTx, email: string): Promise<OperatorsTable> {
  const row = await repo.findByEmail(db, normalOperatorEmail(email));
  if (!row) throw new OperatorAccountError(`operator ${email.trim()} does not exist`);
  return row;
}

/**
 * Disables the operator: its sessions and unused links end at once. Disabling a disabled
 * operator ends any session again but records nothing: the log holds changes.
 */
export async function disableOperator(
  db: Db,
  clock: Clock,
  email: string,
  actor: OperatorActor,
): Promise<OperatorInfo> {
  const now = clock.now();
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const row = await operatorByEmail(tx, email);
    const disabledAt = row.disabled_at ?? at;
    await repo.updateOperator(tx, row.id, { disabled_at: disabledAt, updated_at: at });
    await endSessionsOf(tx, 'operator', row.id);
    await expireLinksOf(tx, 'operator', row.id, at);
    if (row.disabled_at === null) {
      await recordOperatorAction(
        tx,
        actor,
        { action: 'operator.disabled', target: row.id, details: { email: row.email } },
        now,
      );
    }
    return operatorInfo({ ...row, disabled_at: disabledAt });
  });
}

/**
 * Starts the operator over: no password, no second factor, no recovery codes, no sessions;
 * enabled again, with a new one-time sign-in link (older links stop working).
 */
export async function resetOperator(
  db: Db,
  clock: Clock,
  email: string,
  actor: OperatorActor,
): Promise<{ operator: OperatorInfo; link: IssuedOperatorLink }> {
  const now = clock.now();
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const row = await operatorByEmail(tx, email);
    const patch = {
      password_hash: null,
      totp_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      disabled_at: null,
      updated_at: at,
    };
    await repo.updateOperator(tx, row.id, patch);
    await endSessionsOf(tx, 'operator', row.id);
    await codes.deleteCodesOf(tx, row.id);
    const link = await issueLink(tx, row.id, now);
    await recordOperatorAction(
      tx,
      actor,
      { action: 'operator.reset', target: row.id, details: { email: row.email } },
      now,
    );
    return { operator: operatorInfo({ ...row, ...patch }), link };
  });
}

// ---- The sign-in link: password, then the authenticator -----------------------------------

/** What a live link names, for the welcome page. */
export interface OperatorLinkInfo {
  operatorId: string;
  email: string;
  name: string;
  expiresAt: string;
}

async function liveLink(db: DbOrTx, now: Date, token: string) {
  const link = await liveStoredLink(db, 'operator', now, token);
  if (!link) return null;
  const operator = await repo.findOperator(db, link.operator_id);
  if (!operator || operator.disabled_at !== null) return null;
  return { link, operator };
}

/** The operator a link names while it works; null for any link that does not. */
export async function operatorLinkInfo(
  db: Db,
  clock: Clock,
  token: string,
): Promise<OperatorLinkInfo | null> {
  const live = await liveLink(db, clock.now(), token);
  if (!live) return null;
  return {
    operatorId: live.operator.id,
    email: live.operator.email,
    name: live.operator.name,
    expiresAt: live.link.expires_at,
  };
}

const LINK_GONE =
  'This sign-in link does not work any more. Ask another operator for a new one (slotline operator reset).';

/**
 * Sets the operator's password through its link and uses the link up; a new TOTP secret
 * waits for confirmation. Opens an `enrol` session: its cookie secret and the session.
 */
export async function acceptOperatorLink(
  db: Db,
  clock: Clock,
  sealer: Sealer,
  input: { token: string; password: string; confirmation: string },
): Promise<{ secret: string; session: OperatorSession }> {
  const now = clock.now();
  const live = await liveLink(db, now, input.token);
  if (!live) throw new LinkRefused('invalid', LINK_GONE);
  const problem = passwordProblem(input.password, input.confirmation, live.operator.email);
  if (problem) throw new LinkRefused('password', problem);
  const passwordHash = await hash(input.password);
  const sealed = sealer.seal(newTotpSecret());
  const at = now.toISOString();
  const opened = await db.transaction().execute(async (tx) => {
    if (!(await useLink(tx, 'operator', live.link, now))) return null;
    await repo.updateOperator(tx, live.operator.id, {
      password_hash: passwordHash,
      totp_secret: sealed,
      totp_enabled_at: null,
      totp_last_step: null,
      updated_at: at,
    });
    await codes.deleteCodesOf(tx, live.operator.id);
    await endSessionsOf(tx, 'operator', live.operator.id);
    return openSession(tx, now, live.operator, 'enrol');
  });
  // Used by another request in the meantime.
  if (!opened) throw new LinkRefused('invalid', LINK_GONE);
  return opened;
}

/** What the enrolment page shows: the secret as a QR code's URI and typed in groups. */
export interface Enrolment {
  email: string;
  uri: string;
  manualKey: string;
}

/** The authenticator waiting for confirmation in an `enrol` session; null when none waits. */
export async function enrolmentOf(
  db: Db,
  sealer: Sealer,
  session: OperatorSession,
): Promise<Enrolment | null> {
  if (session.step !== 'enrol') return null;
  const row = await repo.findOperator(db, session.operatorId);
  if (!row || !row.totp_secret || row.totp_enabled_at !== null) return null;
  const secret = sealer.open(row.totp_secret);
  return { email: row.email, uri: otpauthUri(secret, row.email), manualKey: groupedSecret(secret) };
}
