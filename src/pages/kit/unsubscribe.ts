// Unsubscribe links of every app (RFC 8058): a mail's link opens a page with one button,
// "Stop these emails", since link scanners fetch addresses; a mail reader's one-click POST
// (`List-Unsubscribe=One-Click`) stops them at once. The signed address is the whole
// authority: no session and no form token, since the mail reader's POST has neither. A
// link whose signature fails or whose year ran out gets a page of its own. Each family
// gives its config, page, check and the service that turns the kind off.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

export interface UnsubscribeView {
  /** `ask` shows the button; `done` says it is off; the others say why nothing changed. */
  state: 'ask' | 'done' | 'invalid' | 'expired';
  /** What the emails are about ("Approvals due soon"). */
  what: string;
  /** The page's own address with its signature, where the button posts. */
  action: string;
}

export interface UnsubscribeFamily {
  /** The route config that lets the page through without a session. */
  config: Record<string, unknown>;
  /** The family's path (`/dashboard/unsubscribe`). */
  path: string;
  render(req: FastifyRequest, reply: FastifyReply, view: UnsubscribeView): unknown;
  /** The kind's words, or null for a kind this family does not send. */
  label(kind: string): string | null;
  check(
    kind: string,
    ownerId: string,
    expires: number,
    signature: string,
  ): 'ok' | 'expired' | 'invalid';
  stop(kind: string, ownerId: string): Promise<void>;
}

const Params = Type.Object({
  kind: Type.String({ maxLength: 60 }),
  ownerId: Type.String({ maxLength: 80 }),
});
const Query = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 20 })),
  signature: Type.Optional(Type.String({ maxLength: 100 })),
});
const Body = Type.Optional(
  Type.Object({ 'List-Unsubscribe': Type.Optional(Type.String({ maxLength: 40 })) }),
);

/** Registers GET and POST `<path>/:kind/:ownerId` of a family (path relative to its base). */
export function unsubscribeRoutes(base: FastifyInstance, family: UnsubscribeFamily): void {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const route = '/unsubscribe/:kind/:ownerId';
  const settle = (req: FastifyRequest) => {
    const params = req.params as { kind: string; ownerId: string };
    const query = req.query as { expires?: string; signature?: string };
    const { kind, ownerId } = params;
    const expires = Number(query.expires ?? '');
    const what = family.label(kind);
    const signed =
      what !== null && Number.isSafeInteger(expires)
        ? family.check(kind, ownerId, expires, query.signature ?? '')
        : 'invalid';
    const action = `${family.path}/${encodeURIComponent(kind)}/${encodeURIComponent(ownerId)}?expires=${encodeURIComponent(query.expires ?? '')}&signature=${encodeURIComponent(query.signature ?? '')}`;
    return { kind, ownerId, what: what ?? 'these emails', signed, action };
  };
  const refused = (reply: FastifyReply, signed: 'expired' | 'invalid') => {
    reply.code(signed === 'expired' ? 410 : 404);
    return signed;
  };

  app.get(
    route,
    { config: family.config, schema: { params: Params, querystring: Query } },
    async (req, reply) => {
      const s = settle(req);
      reply.header('cache-control', 'no-store');
      const state = s.signed === 'ok' ? 'ask' : refused(reply, s.signed);
      return family.render(req, reply, { state, what: s.what, action: s.action });
    },
  );

  // The page's button and the mail reader's one-click POST alike.
  app.post(
    route,
    { config: family.config, schema: { params: Params, querystring: Query, body: Body } },
    async (req, reply) => {
      const s = settle(req);
      reply.header('cache-control', 'no-store');
      if (s.signed !== 'ok') {
        const state = refused(reply, s.signed);
        return family.render(req, reply, { state, what: s.what, action: s.action });
      }
      await family.stop(s.kind, s.ownerId);
      return family.render(req, reply, { state: 'done', what: s.what, action: s.action });
    },
  );
}
