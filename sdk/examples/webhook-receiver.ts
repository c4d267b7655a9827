import { createServer, type Server } from 'node:http';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@slotline/sdk';

export function main(options: {
  port: number;
  secret: string;
  onEvent: (event: WebhookEvent) => void;
}): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        // The raw bytes as received: parsed and re-serialised JSON would not verify.
        const event = verifyWebhook(req.headers, Buffer.concat(chunks), options.secret);
        options.onEvent(event);
        res.writeHead(204).end();
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        console.error(`refused a delivery: ${err.reason}`);
        res.writeHead(400, { 'content-type': 'text/plain' }).end(err.reason);
      }
    });
  });
  return new Promise((resolve) => server.listen(options.port, () => resolve(server)));
}
