// What operators are mailed about their sign-in: the link that starts them (a new operator,
// or one started over), and a link for a forgotten password. Security messages, which
// cannot be turned off; each says who caused it and what happens if it is ignored.
import { mailDateTime, type MailContent } from '../outbox/index.ts';
import type { OperatorActor } from './operator-log.service.ts';

function who(actor: OperatorActor): string {
  return actor.operatorId === null ? 'An administrator of this Slotline' : actor.label;
}

interface LinkFacts {
  email: string;
  url: string;
  expiresAt: string;
}

export function operatorInviteMail(facts: LinkFacts & { actor: OperatorActor }): MailContent {
  const by = who(facts.actor);
  return {
    subject: 'Your Slotline operator console account',
    heading: 'Set up your operator sign-in',
    paragraphs: [
      `${by} made you an operator of Slotline. Through the link below you choose a password, then set up an authenticator app for the second factor.`,
      `The link works once, until ${mailDateTime(facts.expiresAt)}.`,
    ],
    action: { label: 'Set up your sign-in', url: facts.url },
    why: `You get this because ${by} gave ${facts.email} an operator account. If you did not expect it, ignore it: nothing happens unless the link is used.`,
    stop: { security: true },
  };
}

export function operatorResetMail(facts: LinkFacts & { actor: OperatorActor }): MailContent {
  const by = who(facts.actor);
  return {
    subject: 'Your Slotline operator sign-in was reset',
    heading: 'Set up your operator sign-in again',
    paragraphs: [
      `${by} started your operator sign-in over: your password, authenticator and recovery codes no longer work, and you were signed out everywhere.`,
      `Choose a new password and set up your authenticator through the link below. It works once, until ${mailDateTime(facts.expiresAt)}.`,
    ],
    action: { label: 'Set up your sign-in', url: facts.url },
    why: `You get this because ${by} reset the operator account ${facts.email}.`,
    stop: { security: true },
  };
}

export function operatorRecoverMail(
  facts: LinkFacts & { minutes: number; enrolled: boolean },
): MailContent {
  return {
    subject: 'Reset your Slotline operator password',
    heading: 'Choose a new password',
    paragraphs: [
      `Someone asked for a new password for the operator account ${facts.email}.`,
      facts.enrolled
        ? 'Choose it through the link below; your authenticator app is still asked for afterwards.'
        : 'Choose it through the link below, then finish setting up your authenticator app.',
      `The link works once, for ${facts.minutes} minutes (until ${mailDateTime(facts.expiresAt)}); your current password keeps working until it is used.`,
    ],
    action: { label: 'Choose a new password', url: facts.url },
    why: 'You get this because “Forgot your password?” was used on the operator console’s sign-in page with your address. If that was not you, ignore this message: your password stays as it is.',
    stop: { security: true },
  };
}
