// What people are told when a hand-off or a delivery goes wrong: a released task nobody
// claimed (to the operator side), a post a worker reported failed, a post whose report never
// came (unconfirmed), an account its worker reported disconnected (to the company's admins
// and editors, and the failures and disconnections to the operator side too). None is a
// security message: each carries its unsubscribe link. Nothing here reads the clock or the
// database.
import { mailDateTime, type MailContent } from '../outbox/index.ts';

/** A task a notice is about. */
export interface TaskFacts {
  companyName: string;
  username: string;
  platform: string;
  /** When it was released to its worker. */
  releasedAt: string;
  /** The worker's reason, or the service's for a missed report. */
  reason: string | null;
}

/** Who a mail goes to, and the links it carries. */
export interface MailTo {
  email: string;
  timezone: string | null;
  /** The page to act on. */
  url: string;
  unsubscribeUrl: string;
  /** The operator side's copy (a console page, the operator's words). */
  operator: boolean;
}

function why(to: MailTo, companyName: string, what: string): string {
  return to.operator
    ? `You get this because you are an operator of this Slotline service (${to.email}) and ${what}.`
    : `You get this because you are an admin or editor of ${companyName} (${to.email}) and ${what}.`;
}

export function handoffUnclaimedMail(
  task: TaskFacts,
  minutes: number,
  to: Omit<MailTo, 'operator'>,
): MailContent {
  return {
    subject: `Task for @${task.username} not claimed for ${minutes} min · ${task.companyName}`,
    heading: `A task for @${task.username} is not claimed`,
    paragraphs: [
      `The task for @${task.username} (${task.platform}) of ${task.companyName} was released ${mailDateTime(task.releasedAt, to.timezone)} and its worker has not claimed it for ${minutes} minutes. The worker was reminded by push; the fulfilment board shows the task until someone claims it.`,
    ],
    action: { label: 'Open the fulfilment board', url: to.url },
    why: why({ ...to, operator: true }, task.companyName, 'a released task waits for its worker'),
    stop: { unsubscribeUrl: to.unsubscribeUrl },
  };
}

export function taskFailedMail(task: TaskFacts, to: MailTo): MailContent {
  return {
    subject: `Post for @${task.username} failed · ${task.companyName}`,
    heading: `The post for @${task.username} failed`,
    paragraphs: [
      `The worker of @${task.username} (${task.platform}) reported the post released ${mailDateTime(task.releasedAt, to.timezone)} as failed${task.reason ? `: “${task.reason}”` : ''}. Nothing was posted; the post can be queued again from its page.`,
    ],
    action: { label: to.operator ? 'Open the fulfilment board' : 'Open the post', url: to.url },
    why: why(to, task.companyName, 'a post of the company failed'),
    stop: { unsubscribeUrl: to.unsubscribeUrl },
  };
}

export function taskUnconfirmedMail(task: TaskFacts, to: MailTo): MailContent {
  return {
    subject: `Post for @${task.username} not confirmed · ${task.companyName}`,
    heading: `The post for @${task.username} was not confirmed`,
    paragraphs: [
      `The worker of @${task.username} (${task.platform}) claimed the post released ${mailDateTime(task.releasedAt, to.timezone)} but did not report it by its deadline. It may have gone out without a report: check the account before queueing it again. If the worker reports it posted later, the post shows it.`,
    ],
    action: { label: 'Open the post', url: to.url },
    why: why(to, task.companyName, 'a post of the company was not confirmed'),
    stop: { unsubscribeUrl: to.unsubscribeUrl },
  };
}

export interface AccountFacts {
  companyName: string;
  username: string;
  platform: string;
  reason: string | null;
  at: string;
}

export function accountDisconnectedMail(account: AccountFacts, to: MailTo): MailContent {
  return {
    subject: `@${account.username} disconnected · ${account.companyName}`,
    heading: `@${account.username} is disconnected`,
    paragraphs: [
      `The worker of @${account.username} (${account.platform}) reported it disconnected ${mailDateTime(account.at, to.timezone)}${account.reason ? `: “${account.reason}”` : ''}. Its queued posts wait, in their order, until the account is connected again.`,
    ],
    action: { label: 'Open the account', url: to.url },
    why: why(to, account.companyName, 'an account of the company stopped taking posts'),
    stop: { unsubscribeUrl: to.unsubscribeUrl },
  };
}
