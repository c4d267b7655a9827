// What every family of server-rendered pages (the dashboard, the workers' app, the operator
// console) sets up the same way in its encapsulated plugin: its routes kept out of the API's
// bearer-key check and OpenAPI document, the pages' security headers on every response
// (redirects, error pages and assets too), compression, cookies, form bodies, its templates,
// and its assets served from the installed files, never a CDN.
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import { registerMinifiedAssets, type AssetSet } from './assets.ts';
import { readAsBrowsersSend } from './forms.ts';
import { validationError } from '../../http/validation.ts';

export interface PageFamily {
  /** Where the family's pages live (`/dashboard`), the templates' `base`. */
  base: string;
  /** The headers every response carries. */
  headers: Record<string, string>;
  /** The templates' directory. */
  views: string;
  /** Its assets, served under `<base>/assets/`; a family without them serves none. */
  assets?: AssetSet;
}

export async function registerPageFamily(app: FastifyInstance, family: PageFamily) {
  // Every route (the assets' too, so this comes first) is outside the API's bearer-key
  // check and its OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.headers(family.headers);
    return payload;
  });
  // Every page masks its CSRF token afresh, so compressed sizes tell nothing about it.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(view, {
    engine: { eta: new Eta({ views: family.views, autoEscape: true }) },
    root: family.views,
    // Templates are read once; they change only with a new release.
    production: true,
    defaultContext: { base: family.base },
  });
  if (family.assets) {
    const { roots, allowed } = family.assets;
    await registerMinifiedAssets(app, roots, allowed);
    await app.register(fastifyStatic, {
      root: [...roots],
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      allowedPath: allowed,
      maxAge: '1h',
      // Icons, fonts and scripts of a few KB: sent whole whatever Range asks (RFC 9110
      // section 14.2 lets a server ignore it). The static files' own range parser refuses a
      // suffix longer than the file, and its 416 reached the pages' error handler as a 500.
      acceptRanges: false,
    });
  }
  // A query or form the route's schema refuses reads as the API words it, naming the
  // field (a form's field by its name, never a JSON pointer), on the error page; a form's own
  // handler words its refusals next to each field (form-errors.ts).
  app.setSchemaErrorFormatter((errors, context) =>
    validationError(errors, context === 'body' ? 'form' : context),
  );
  app.addHook('preValidation', readAsBrowsersSend);
}

/**
 * A page's address with a slash added goes to the page (a 301 keeping the query); an empty
 * id names no page, so an address that is no page without its slash is left to the 404.
 * `keep` names the addresses left as they are (the family's assets, its own top).
 */
export function redirectSlashedAddresses(
  app: FastifyInstance,
  keep: (path: string, bare: string) => boolean = () => false,
): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const [path = '', query] = req.url.split('?', 2);
    if (!/[^/]\/+$/.test(path)) return;
    const bare = path.replace(/\/+$/, '');
    if (keep(path, bare) || !app.hasRoute({ method: 'GET', url: bare })) return;
    return reply.redirect(query === undefined ? bare : `${bare}?${query}`, 301);
  });
}
