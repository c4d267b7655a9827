// GET /docs: the API reference, the OpenAPI document at /v2/openapi.json rendered in the
// browser by Redoc. Public like the document itself, and out of it (it is a page, not an
// operation). Every asset comes from this service: the page works where the machine has
// no network, and its Content-Security-Policy allows nothing from elsewhere. Beside it,
// GET /favicon.ico: the service's icon, which browsers ask for at the root.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export const BUNDLE_URL = '/docs/assets/redoc.standalone.js';
const BUNDLE_PATH = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
// The side menu's "API docs by Redocly" shows a logo from Redocly's CDN, whatever the
// options; with an empty src the image fails at once and Redoc leaves it out.
const CDN_LOGO = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"';
// The icon is committed beside the pages' shared assets (drawn by scripts/make-favicon.ts
// from favicon.svg), a file read, not a module imported; src/http/ and dist/http/ are both
// two levels below the package root.
const FAVICON_PATH = fileURLToPath(
  new URL('../../src/pages/kit/assets/favicon.ico', import.meta.url),
);

interface Bundle {
  body: Buffer;
  etag: string;
}

let bundle: Promise<Bundle> | undefined;
let favicon: Promise<Bundle> | undefined;

/** The bundle without its one outside request, read once per process. */
function redocBundle(): Promise<Bundle> {
  bundle ??= readFile(BUNDLE_PATH, 'utf8').then((text) => {
    const body = Buffer.from(text.replace(CDN_LOGO, 'src:""'));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    return { body, etag };
  });
  return bundle;
}

/** The icon's bytes, read once per process. */
function faviconFile(): Promise<Bundle> {
  favicon ??= readFile(FAVICON_PATH).then((body) => ({
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  }));
  return favicon;
}

// Redoc's standalone bundle renders the <redoc> element on load, so the page needs no
// inline script. Redoc has no font of its own: the fonts are the system's (its own
// examples load Google's, which this page does not). The empty icon spares the browser
// asking for /favicon.ico.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Slotline API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="/v2/openapi.json"></redoc>
<script src="${BUNDLE_URL}"></script>
</body>
</html>
`;

// Redoc styles itself with injected <style> elements (styled-components) and runs its
// search index in a worker made from a blob: URL; everything else is this origin's.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const hidden = { config: { public: true }, schema: { hide: true } };

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  // The bundle is about 1 MB; compressed it is a fraction of that.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  app.get('/docs', hidden, async (_req, reply) =>
    reply
      .header('content-security-policy', CSP)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(PAGE),
  );

  app.get(BUNDLE_URL, hidden, async (req, reply) => {
    const { body, etag } = await redocBundle();
    // It changes only with a new release of the service; the ETag covers the rest.
    reply.header('cache-control', 'public, max-age=86400').header('etag', etag);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(body);
  });

  app.get('/favicon.ico', hidden, async (req, reply) => {
    const { body, etag } = await faviconFile();
    reply.header('cache-control', 'public, max-age=86400').header('etag', etag);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('image/x-icon').send(body);
  });
}
