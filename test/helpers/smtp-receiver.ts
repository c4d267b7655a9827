// A real SMTP server on loopback (smtp-server) that parses what it receives (mailparser),
// and can be told to refuse recipients for now (4xx) or for good (5xx).
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface SmtpReceiver {
  url: string;
  received: ParsedMail[];
  /** Answers the next RCPT TO with `code` (e.g. 451 or 550) while set; null accepts. */
  refuseWith: number | null;
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no SMTP port');
  receiver.url = `smtp://127.0.0.1:${address.port}`;
  return receiver;
}
