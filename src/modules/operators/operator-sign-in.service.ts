// Signing in to the operator console takes two factors: the email and password open a
// short `password` session, and a TOTP code from the operator's app (or one of its
// recovery codes) turns it into a full one. Both steps count their failures with the
// sign-in limit every sign-in form shares (sign-in module): the password per account and per address, the
// code per operator and per address, each attempt reserved before its secret is checked.
// Confirming a new authenticator (the sign-in link's last step) is a code step too.
import { hash, verify } from '@node-rs/argon2';
import type { Db, DbOrTx, OperatorSessionStep, OperatorsTable } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import { MAX_PASSWORD } from '../../lib/password-rules.ts';
import type { Sealer } from '../../lib/seal.ts';
import {
  MAX_FAILURES_PER_ADDRESS,
  clearSignInAttempts,
  releaseSignInAttempts,
  reserveSignInAttempt,
  takeOperatorSession,
  SignInRefused,
} from '../sign-in/index.ts';
import { operatorLabel, recordOperatorAction } from './operator-log.service.ts';
import { openSession, type OperatorSession } from './operator-sessions.service.ts';
import * as repo from './operators.repository.ts';
import * as codes from './recovery-codes.repository.ts';
import {
  checkTotp,
  isTotpShape,
  newRecoveryCodes,
  normalCode,
  normalRecoveryCode,
  recoveryCodeHash,
} from './totp.rules.ts';

/** Failed attempts allowed per window: a password per account, a code per operator. */
export const MAX_PASSWORD_FAILURES = 5;
export const MAX_CODE_FAILURES = 5;

/** Verified against when the email is unknown (or has no password), so answers take as long. */
let decoyHash: Promise<string> | null = null;

function accountKey(email: string): string {
  return `operator:${email}`;
}
function codeKey(operatorId: string): string {
  return `operator-code:${operatorId}`;
}
function addressKey(address: string): string {
  return `ip:${address}`;
}

/**
 * The first step: checks the email and password and opens a `password` session (its
 * cookie secret and the session), which waits for a code.
 */
export async function signInOperator(
  db: Db,
  clock: Clock,
  input: { email: string; password: string; address: string },
): Promise<{ secret: string; session: OperatorSession }> {
  const email = input.email.trim().toLowerCase();
  const account = accountKey(email);
  const address = addressKey(input.address);
  const wait = await reserveSignInAttempt(db, clock, [
    { key: account, max: MAX_PASSWORD_FAILURES },
    { key: address, max: MAX_FAILURES_PER_ADDRESS },
  ]);
  if (wait > 0) throw new SignInRefused('limited', wait);
  const row = email.length <= 254 ? await repo.findByEmail(db, email) : undefined;
  decoyHash ??= hash(randomToken(12));
  const passwordHash = row?.password_hash ?? (await decoyHash);
  const ok = input.password.length <= MAX_PASSWORD && (await verify(passwordHash, input.password));
  // A refused attempt keeps its reservations: they are its count as a failure.
  if (!row || !row.password_hash || !ok || row.disabled_at !== null) {
    throw new SignInRefused('invalid');
  }
  await clearSignInAttempts(db, account);
  await releaseSignInAttempts(db, [address]);
  if (row.totp_enabled_at === null || row.totp_secret === null) {
    throw new SignInRefused('no_totp');
  }
  return openSession(db, clock.now(), row, 'password');
}

/** What a code proved: which kind it was, and the recovery codes left after it. */
interface CodeUsed {
  recoveryCode: boolean;
}

/**
 * Checks a TOTP code (or, with `recovery`, a recovery code) of the locked operator and uses
 * it up: its TOTP step, or the recovery code. Throws SignInRefused otherwise.
 */
async function useCode(
  tx: DbOrTx,
  sealer: Sealer,
  row: OperatorsTable,
  typed: string,
  now: Date,
  recovery: boolean,
): Promise<CodeUsed> {
  const code = normalCode(typed);
  if (isTotpShape(code) && row.totp_secret !== null) {
    const checked = checkTotp(
      sealer.open(row.totp_secret),
      code,
      now.getTime(),
      row.totp_last_step,
    );
    if (!checked.ok) throw new SignInRefused(checked.reason);
    // Taken by another request since the row was read: the same code, used twice.
    if (!(await repo.takeTotpStep(tx, row.id, checked.step))) {
      throw new SignInRefused('reused');
    }
    return { recoveryCode: false };
  }
  const normal = recovery ? normalRecoveryCode(typed) : null;
  if (!normal || !(await codes.useCode(tx, row.id, recoveryCodeHash(normal), now.toISOString()))) {
    throw new SignInRefused('invalid');
  }
  return { recoveryCode: true };
}

/**
 * Runs a code step of `session` (at `from`): reserves the attempt, checks and uses the code
 * in a transaction with `then`, and gives the reservations back on success.
 */
async function codeStep<T>(
  db: Db,
  clock: Clock,
  session: OperatorSession,
  from: OperatorSessionStep,
  address: string,
  then: (tx: DbOrTx, row: OperatorsTable, now: Date) => Promise<T>,
): Promise<T> {
  const keys = [codeKey(session.operatorId), addressKey(address)];
  const wait = await reserveSignInAttempt(db, clock, [
    { key: keys[0] as string, max: MAX_CODE_FAILURES },
    { key: keys[1] as string, max: MAX_FAILURES_PER_ADDRESS },
  ]);
  if (wait > 0) throw new SignInRefused('limited', wait);
  const now = clock.now();
  const result = await db.transaction().execute(async (tx) => {
    const row = await repo.lockOperator(tx, session.operatorId);
    if (!row || row.disabled_at !== null) throw new SignInRefused('invalid');
    const value = await then(tx, row, now);
    // The step this session was at is used up: a second request with it finds nothing.
    if (!(await takeOperatorSession(tx, session.sessionId, from))) {
      throw new SignInRefused('invalid');
    }
    await repo.updateOperator(tx, row.id, { last_sign_in_at: now.toISOString() });
    return value;
  });
  await clearSignInAttempts(db, keys[0] as string);
  await releaseSignInAttempts(db, [keys[1] as string]);
  return result;
}

/**
 * The second step of a sign-in: a TOTP code, or an unused recovery code, turns the
 * `password` session into a full one (a new session and cookie secret).
 */
export async function passSecondFactor(
  db: Db,
  clock: Clock,
  sealer: Sealer,
  session: OperatorSession,
  input: { code: string; address: string },
): Promise<{
  secret: string;
  session: OperatorSession;
  recoveryCodeUsed: boolean;
  recoveryCodesLeft: number;
}> {
  if (session.step !== 'password') throw new SignInRefused('invalid');
  return codeStep(db, clock, session, 'password', input.address, async (tx, row, now) => {
    if (row.totp_enabled_at === null) throw new SignInRefused('no_totp');
    const used = await useCode(tx, sealer, row, input.code, now, true);
    const opened = await openSession(tx, now, row, 'full');
    const left = (await codes.countUnused(tx, [row.id])).get(row.id) ?? 0;
    await recordOperatorAction(
      tx,
      { operatorId: row.id, label: operatorLabel(row) },
      {
        action: 'operator.signed_in',
        target: row.id,
        details: used.recoveryCode
          ? { email: row.email, method: 'recovery_code', recoveryCodesLeft: left }
          : { email: row.email, method: 'totp' },
      },
      now,
    );
    return { ...opened, recoveryCodeUsed: used.recoveryCode, recoveryCodesLeft: left };
  });
}

/**
 * The sign-in link's last step: a code from the newly set-up app confirms it. The second
 * factor is then on, ten recovery codes replace any earlier ones (returned once, stored as
 * digests), and the `enrol` session becomes a full one.
 */
export async function confirmEnrolment(
  db: Db,
  clock: Clock,
  sealer: Sealer,
  session: OperatorSession,
  input: { code: string; address: string },
): Promise<{ secret: string; session: OperatorSession; recoveryCodes: string[] }> {
  if (session.step !== 'enrol') throw new SignInRefused('invalid');
  return codeStep(db, clock, session, 'enrol', input.address, async (tx, row, now) => {
    if (row.totp_enabled_at !== null || row.totp_secret === null) {
      throw new SignInRefused('invalid');
    }
    await useCode(tx, sealer, row, input.code, now, false);
    const at = now.toISOString();
    await repo.updateOperator(tx, row.id, { totp_enabled_at: at, updated_at: at });
    const recoveryCodes = newRecoveryCodes();
    await codes.deleteCodesOf(tx, row.id);
    await codes.insertCodes(
      tx,
      recoveryCodes.map((code) => ({
        id: newId('orc', now.getTime()),
        operator_id: row.id,
        code_hash: recoveryCodeHash(code),
        created_at: at,
        used_at: null,
      })),
    );
    await recordOperatorAction(
      tx,
      { operatorId: row.id, label: operatorLabel(row) },
      { action: 'operator.enrolled', target: row.id, details: { email: row.email } },
      now,
    );
    const opened = await openSession(tx, now, row, 'full');
    return { ...opened, recoveryCodes };
  });
}

/** Unused recovery codes of the operator. */
export async function recoveryCodesLeft(db: Db, operatorId: string): Promise<number> {
  return (await codes.countUnused(db, [operatorId])).get(operatorId) ?? 0;
}
