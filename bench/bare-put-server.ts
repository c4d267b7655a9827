// Baseline for the byte upload: a bare Node server piping the request body to a file.
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { pipeline } from 'node:stream/promises';

const port = Number(process.env.PORT);
const target = process.argv[2] as string;
createServer((req, res) => {
  if (req.method !== 'PUT') {
    res.writeHead(200).end('ok');
    return;
  }
  pipeline(req, createWriteStream(target)).then(
    () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    () => res.writeHead(500).end(),
  );
}).listen(port, '127.0.0.1');
