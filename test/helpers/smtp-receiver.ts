// A real SMTP server on loopback (smtp-server) that parses what it receives (mailparser),
// and can be told to refuse recipients for now (4xx) or for good (5xx), or to take a
// message's data and never answer (a sender stuck mid-send, for crash tests).
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface SmtpReceiver {
  url: string;
  received: ParsedMail[];
  /** Answers the next RCPT TO with `code` (e.g. 451 or 550) while set; null accepts. */
  refuseWith: number | null;
  /** While set, a message's data is read and never answered: the sender waits for ever. */
  holdData: boolean;
  /** How many messages are being held unanswered now. */
  held: number;
  /** Resolves once `count` messages in all have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: SmtpReceiver = {
    url: '',
    received: [],
    refuseWith: null,
    holdData: false,
    held: 0,
    async waitFor(count, timeoutMs = 10_000) {
      if (receiver.received.length >= count) return receiver.received;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${receiver.received.length} of ${count} mails arrived`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
      return receiver.received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (receiver.refuseWith === null) return callback();
      const err = Object.assign(new Error('Recipient refused by the test'), {
        responseCode: receiver.refuseWith,
      });
      return callback(err);
    },
    onData(stream, _session, callback) {
      if (receiver.holdData) {
        receiver.held += 1;
        // Read to the end and never answered: the message is not accepted.
        stream.resume();
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          receiver.received.push(mail);
          for (const w of waiters.splice(0)) {
            if (receiver.received.length >= w.count) w.resolve();
            else waiters.push(w);
          }
          callback();
        })
        .catch(callback);
    },
  });
  // A sender that dies mid-conversation (the crash tests kill one) resets its connection:
  // the server reports it, and it ends that conversation only.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') throw err;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no SMTP port');
  receiver.url = `smtp://127.0.0.1:${address.port}`;
  return receiver;
}
