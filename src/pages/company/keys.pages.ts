// API keys (dashboard page; SPEC 5): admins list the company's keys, create one with the
// scopes they choose and see its secret once, and revoke keys. Every route, reading
// included, needs the admin role: a key list tells which integrations exist.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { SCOPES, type Scope } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import { createKey, getCompanyKey, listKeys, revokeCompanyKey } from '../../modules/keys/index.ts';
import { StringEnum } from '../../schemas/common.ts';
import { checkWith, Repeated, valuesOf, type Broken } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

const ADMIN = { config: { role: 'admin' as const } };
const KeyParams = Type.Object({ keyId: Type.String() });
/** The form as sent: a name and the scopes ticked. */
const NewKeyForm = Type.Object({
  name: Type.Optional(Type.String()),
  scope: Type.Optional(Repeated),
});
/** The key the form asks for. No API route creates keys, so these rules are the page's. */
const checkKey = checkWith(
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(StringEnum(SCOPES), { minItems: 1 }),
  }),
);

/** A refusal of the key form in the words the page shows beside it. */
function refusal({ field, keyword, limit }: Broken): string {
  if (field === 'name') {
    return keyword === 'maxLength'
      ? `A name has at most ${limit} characters.`
      : 'Enter a name, so the key can be told apart later.';
  }
  return keyword === 'minItems' ? 'Choose at least one scope.' : 'Choose scopes from the list.';
}

/** What each scope allows, as SPEC 5 words it. */
const SCOPE_HELP: Record<Scope, string> = {
  'posts:read': 'list posts and content tags, inspect status, read account queues',
  'posts:write': 'upload media; create, queue, edit or cancel posts; manage content tags',
  'accounts:read': 'list publishing accounts; read posting schedules',
  'accounts:write': 'create publishing accounts; change posting schedules',
  'analytics:read': 'read post and account analytics',
  'usage:read': 'view plan limits and daily API usage',
  'workspace:read': 'read the company, connected accounts, image folders and packs',
  'media:read': 'create short-lived download URLs for company images',
  'webhooks:read': 'list webhook endpoints and read their delivery log',
  'webhooks:write':
    'create, change, disable and delete webhook endpoints; rotate secrets; replay events',
};

export function keyPages(ctx: AppContext) {
  async function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { error?: string; form?: { name: string; scopes: string[] } } = {},
  ) {
    const user = userOf(req);
    const keys = await listKeys(ctx.db, user.companyId);
    return page(req, reply, 'keys.eta', 'API keys', {
      // Newest first: the key just created or revoked is at the top.
      keys: [...keys].reverse(),
      scopes: SCOPES.map((scope) => ({ scope, help: SCOPE_HELP[scope] })),
      done: takeFlash(ctx, req, reply),
      error: extra.error ?? null,
      form: extra.form ?? { name: '', scopes: [] },
    });
  }

  async function keyOr404(companyId: string, keyId: string) {
    const key = await getCompanyKey(ctx.db, companyId, keyId);
    // Another company's key and an unknown id answer alike.
    if (!key) throw new ActionRefused('not_found', 'Not found.');
    return key;
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/keys', ADMIN, async (req, reply) => listPage(req, reply));

    app.post('/keys', { ...ADMIN, schema: { body: NewKeyForm } }, async (req, reply) => {
      const user = userOf(req);
      const form = {
        name: req.body.name?.trim() ?? '',
        scopes: [...new Set(valuesOf(req.body.scope))],
      };
      const checked = checkKey(form);
      if (!checked.ok) {
        reply.code(400);
        return listPage(req, reply, { error: refusal(checked.broken), form });
      }
      const { name, scopes } = checked.value;
      const key = await createKey(ctx.db, ctx.clock, {
        companyId: user.companyId,
        // The list's order, whatever order the browser sent them in.
        scopes: SCOPES.filter((s) => scopes.includes(s)),
        name,
        actor: actorOf(user),
      });
      // The secret exists only in this response (it is stored hashed), so this page is the
      // answer to the POST rather than a redirect; `page` marks it no-store.
      return page(req, reply, 'key-created.eta', 'API key created', { key });
    });

    const revoke = { ...ADMIN, schema: { params: KeyParams } };
    app.get('/keys/:keyId/revoke', revoke, async (req, reply) => {
      const user = userOf(req);
      const key = await keyOr404(user.companyId, req.params.keyId);
      return page(req, reply, 'key-revoke.eta', `Revoke key ${key.name}`, { key });
    });

    app.post('/keys/:keyId/revoke', revoke, async (req, reply) => {
      const user = userOf(req);
      const key = await revokeCompanyKey(
        ctx.db,
        ctx.clock,
        user.companyId,
        req.params.keyId,
        actorOf(user),
      );
      if (!key) throw new ActionRefused('not_found', 'Not found.');
      setFlash(ctx, req, reply, `Key “${key.name}” revoked.`);
      return redirect(req, reply, `${BASE}/keys`);
    });
  };
}
