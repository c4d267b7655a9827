// Operators' one-time sign-in links. An `invite` link (a new operator, or one started over)
// leads through a password and then a new authenticator app; a `recover` link ("Forgot your
// password?", valid an hour) sets a new password only, and the second factor is asked for
// next, or, for an operator who never finished setting it up, set up then. Only the digest
// of a link's token is stored, a link is used once, and a newer link ends the older ones.
// With mail on, a link is also mailed to the operator in the transaction that made it.
import { hash } from '@node-rs/argon2';
import type { Db, DbOrTx, LinkPurpose, OperatorsTable } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { passwordProblem } from '../../lib/password-rules.ts';
import type { Sealer } from '../../lib/seal.ts';
import { sendMail, type MailContent, type Mailing } from '../outbox/index.ts';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  endSessionsOf,
  issueLink as issueStoredLink,
  liveLink as liveStoredLink,
  reserveSignInAttempt,
  useLink,
  LinkRefused,
} from '../sign-in/index.ts';
import { operatorLabel, recordOperatorAction } from './operator-log.service.ts';
import { operatorRecoverMail } from './operator-mail.rules.ts';
import { openSession, type OperatorSession } from './operator-sessions.service.ts';
import * as repo from './operators.repository.ts';
import * as codes from './recovery-codes.repository.ts';
import { groupedSecret, newTotpSecret, otpauthUri } from './totp.rules.ts';

/** How long a new (or started over) operator's link stays valid. */
export const OPERATOR_LINK_MS = 24 * 60 * 60 * 1000;
/** How long a forgotten password's link stays valid. */
export const OPERATOR_RECOVER_LINK_MS = 60 * 60 * 1000;
/** Where on the service an operator's sign-in link leads. */
export const OPERATOR_WELCOME_PATH = '/operator/welcome';

/** The address of an operator's sign-in link. */
export function operatorWelcomeUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${OPERATOR_WELCOME_PATH}?token=${encodeURIComponent(token)}`;
}

/** A sign-in link just made: its token (shown once), when it stops working, whether it was mailed. */
export interface IssuedOperatorLink {
  token: string;
  expiresAt: string;
  emailed: boolean;
}

/**
 * A new one-time link of the operator; its older unused ones stop working. With `mailing`,
 * the mail `content` makes of the link's address and expiry is written in the same
 * transaction.
 */
export async function issueOperatorLink(
  tx: DbOrTx,
  row: Pick<OperatorsTable, 'id' | 'email'>,
  now: Date,
  purpose: LinkPurpose,
  mail: {
    mailing: Mailing | null;
    kind: string;
    content: (url: string, expiresAt: string) => MailContent;
  },
): Promise<IssuedOperatorLink> {
  const { token, row: link } = await issueStoredLink(
    tx,
    'operator',
    now,
    { operator_id: row.id, purpose },
    {
      lifetimeMs: purpose === 'recover' ? OPERATOR_RECOVER_LINK_MS : OPERATOR_LINK_MS,
      ownerId: row.id,
      replace: true,
    },
  );
  let emailed = false;
  if (mail.mailing) {
    const url = operatorWelcomeUrl(mail.mailing.publicUrl, token);
    await sendMail(
      tx,
      { companyId: null, kind: mail.kind, to: row.email },
      mail.content(url, link.expires_at),
      now,
    );
    emailed = true;
  }
  return { token, expiresAt: link.expires_at, emailed };
}

/**
 * "Forgot your password?": mails a `recover` link to `email` when it names an enabled
 * operator. The answer is the same either way (the seconds to wait when the limit refuses,
 * else 0); requests count per address asked for and per client address like sign-ins.
 */
export async function requestOperatorRecovery(
  db: Db,
  clock: Clock,
  mailing: Mailing,
  input: { email: string; address: string },
): Promise<number> {
  const email = input.email.trim().toLowerCase().slice(0, 254);
  const wait = await reserveSignInAttempt(db, clock, [
    { key: `recover-operator:${email}`, max: MAX_FAILURES_PER_ACCOUNT },
    { key: `recover-ip:${input.address}`, max: MAX_FAILURES_PER_ADDRESS },
  ]);
  if (wait > 0) return wait;
  const row = await repo.findByEmail(db, email);
  if (!row || row.disabled_at !== null) return 0;
  const now = clock.now();
  const isEnrolled = enrolled(row);
  await db.transaction().execute((tx) =>
    issueOperatorLink(tx, row, now, 'recover', {
      mailing,
      kind: 'password_reset',
      content: (url, expiresAt) =>
        operatorRecoverMail({
          email: row.email,
          url,
          expiresAt,
          enrolled: isEnrolled,
          minutes: OPERATOR_RECOVER_LINK_MS / 60_000,
        }),
    }),
  );
  return 0;
}

/** What a live link names, for the welcome page. */
export interface OperatorLinkInfo {
  operatorId: string;
  email: string;
  name: string;
  expiresAt: string;
  purpose: LinkPurpose;
  /** A forgotten password's link of an operator with a second factor: it is asked for next. */
  keepsSecondFactor: boolean;
}

function enrolled(row: OperatorsTable): boolean {
  return row.totp_enabled_at !== null && row.totp_secret !== null;
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
    purpose: live.link.purpose,
    keepsSecondFactor: live.link.purpose === 'recover' && enrolled(live.operator),
  };
}

const LINK_GONE =
  'This sign-in link does not work any more. Ask another operator for a new one (slotline operator reset).';

/**
 * Sets the operator's password through its link and uses the link up, and opens the session
 * of the step after it (its cookie secret and the session). A `recover` link of an operator
 * with a second factor keeps it: the session is a `password` one, waiting for a code. Any
 * other link starts the authenticator over: a new TOTP secret waits for confirmation in an
 * `enrol` session. Either way the operator's other sessions end.
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
  const keepsFactor = live.link.purpose === 'recover' && enrolled(live.operator);
  const sealed = keepsFactor ? null : sealer.seal(newTotpSecret());
  const at = now.toISOString();
  const opened = await db.transaction().execute(async (tx) => {
    if (!(await useLink(tx, 'operator', live.link, now))) return null;
    await endSessionsOf(tx, 'operator', live.operator.id);
    if (sealed === null) {
      await repo.updateOperator(tx, live.operator.id, {
        password_hash: passwordHash,
        updated_at: at,
      });
      await recordOperatorAction(
        tx,
        { operatorId: live.operator.id, label: operatorLabel(live.operator) },
        {
          action: 'operator.password_recovered',
          target: live.operator.id,
          details: { email: live.operator.email },
        },
        now,
      );
      return openSession(tx, now, live.operator, 'password');
    }
    await repo.updateOperator(tx, live.operator.id, {
      password_hash: passwordHash,
      totp_secret: sealed,
      totp_enabled_at: null,
      totp_last_step: null,
      updated_at: at,
    });
    await codes.deleteCodesOf(tx, live.operator.id);
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
