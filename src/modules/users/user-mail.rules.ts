// What the dashboard's people are mailed about their sign-in: an invitation, a reset by an
// admin, and a link for a forgotten password. Each is a security message (it cannot be
// turned off) that says who caused it and what happens if it is ignored.
import type { UserRole } from '../../db/types.ts';
import { mailDateTime, type MailContent } from '../outbox/index.ts';
import type { Actor } from '../activity/index.ts';

/** Who did it, as a mail names them ("ann@acme.example", "The Slotline operator"). */
function who(actor: Actor): string {
  return actor.id === 'operator' ? 'The Slotline operator' : actor.label;
}

function article(role: UserRole): string {
  return role === 'admin' ? 'an admin' : `an ${role}`;
}

interface LinkFacts {
  email: string;
  companyName: string;
  url: string;
  expiresAt: string;
  timezone: string | null;
}

export function inviteMail(facts: LinkFacts & { role: UserRole; actor: Actor }): MailContent {
  const by = who(facts.actor);
  return {
    subject: `${by} invited you to ${facts.companyName} on Slotline`,
    heading: `Join ${facts.companyName} on Slotline`,
    paragraphs: [
      `${by} invited you to ${facts.companyName}’s Slotline dashboard as ${article(facts.role)}.`,
      `Choose your password through the link below. It works once, until ${mailDateTime(facts.expiresAt, facts.timezone)}.`,
    ],
    action: { label: 'Choose your password', url: facts.url },
    why: `You get this because ${by} invited ${facts.email} to ${facts.companyName}. If you did not expect it, ignore it: nothing happens unless the link is used.`,
    stop: { security: true },
  };
}

export function resetMail(facts: LinkFacts & { actor: Actor }): MailContent {
  const by = who(facts.actor);
  return {
    subject: `Your Slotline sign-in for ${facts.companyName} was reset`,
    heading: 'Choose a new password',
    paragraphs: [
      `${by} reset your sign-in to ${facts.companyName}’s Slotline dashboard: your old password no longer works and you were signed out everywhere.`,
      `Choose a new password through the link below. It works once, until ${mailDateTime(facts.expiresAt, facts.timezone)}.`,
    ],
    action: { label: 'Choose a new password', url: facts.url },
    why: `You get this because ${by}, an admin of ${facts.companyName}, reset the sign-in of ${facts.email}.`,
    stop: { security: true },
  };
}

export function recoverMail(facts: LinkFacts & { minutes: number }): MailContent {
  return {
    subject: 'Reset your Slotline password',
    heading: 'Choose a new password',
    paragraphs: [
      `Someone asked for a new password for ${facts.email} on ${facts.companyName}’s Slotline dashboard.`,
      `Choose it through the link below. The link works once, for ${facts.minutes} minutes (until ${mailDateTime(facts.expiresAt, facts.timezone)}); your current password keeps working until it is used.`,
    ],
    action: { label: 'Choose a new password', url: facts.url },
    why: 'You get this because “Forgot your password?” was used on the dashboard’s sign-in page with your address. If that was not you, ignore this message: your password stays as it is.',
    stop: { security: true },
  };
}
