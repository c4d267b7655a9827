// Operators: the service's own staff, bound to no company. The admin CLI creates one with a
// one-time sign-in link (24 hours, used once; mailed too when mail is on); through it the
// operator chooses a password and enrols an authenticator app (TOTP), confirming it with a
// code, and gets ten recovery codes, shown once (operator-links.service.ts). `disable` ends
// the operator's sessions and links at once; `reset` clears the password and the second
// factor and hands out a new link.
import type { Db, DbOrTx, OperatorsTable } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { CliError } from '../../lib/cli-error.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Mailing } from '../outbox/index.ts';
import { endSessionsOf, expireLinksOf } from '../sign-in/index.ts';
import { issueOperatorLink, type IssuedOperatorLink } from './operator-links.service.ts';
import { recordOperatorAction, type OperatorActor } from './operator-log.service.ts';
import { operatorInviteMail, operatorResetMail } from './operator-mail.rules.ts';
import * as repo from './operators.repository.ts';
import * as codes from './recovery-codes.repository.ts';

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

export function normalOperatorEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length < 3 || e.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(e)) {
    throw new OperatorAccountError(`"${email}" is not an email address`);
  }
  return e;
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
  mailing: Mailing | null,
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
      return issueOperatorLink(tx, row, now, 'invite', {
        mailing,
        kind: 'operator_invite',
        content: (url, expiresAt) => operatorInviteMail({ email, url, expiresAt, actor }),
      });
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

/** Who the operator side's notices are mailed to: the enabled operators who finished enrolment. */
export async function operatorRecipients(
  db: DbOrTx,
): Promise<{ id: string; email: string; timezone: null }[]> {
  return (await repo.listOperators(db))
    .filter((r) => r.disabled_at === null && r.totp_enabled_at !== null)
    .map((r) => ({ id: r.id, email: r.email, timezone: null }));
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
  mailing: Mailing | null,
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
    const link = await issueOperatorLink(tx, row, now, 'invite', {
      mailing,
      kind: 'operator_reset',
      content: (url, expiresAt) => operatorResetMail({ email: row.email, url, expiresAt, actor }),
    });
    await recordOperatorAction(
      tx,
      actor,
      { action: 'operator.reset', target: row.id, details: { email: row.email } },
      now,
    );
    return { operator: operatorInfo({ ...row, ...patch }), link };
  });
}
