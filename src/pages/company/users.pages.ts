// People (dashboard page, admins only): the company's users with their role, sign-in state
// and last sign-in; admins invite a user by one-time link (shown once), change a role,
// disable a user (never themselves, never the last enabled admin) and reset one (its
// password stops working and a new one-time link is shown once). The users service does
// the work in one transaction with its activity log entry; another company's user answers
// 404 like an unknown id.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import {
  ROLES,
  USER_LINK_MS,
  UserError,
  changeUserRole,
  disableCompanyUser,
  getCompanyUser,
  inviteCompanyUser,
  listCompanyUsers,
  resetCompanyUser,
  userWelcomeUrl,
  type IssuedUserLink,
  type UserInfo,
} from '../../modules/users/index.ts';
import { StringEnum } from '../../schemas/common.ts';
import { setFlash, takeFlash } from './flash.ts';
import { fieldError, formCheck, type FieldError } from './forms.ts';
import { page } from './layout.ts';
import { BASE, actorOf, redirect, userOf } from './session.ts';

const ADMIN = { role: 'admin' as const };
const UserParams = Type.Object({ userId: Type.String() });
/** The invitation form as sent. */
const InviteForm = Type.Object({
  email: Type.Optional(Type.String()),
  role: Type.Optional(Type.String()),
});
/** The role form of one user's row. */
const RoleForm = Type.Object({ role: Type.Optional(Type.String()) });

/** An invitation: an email and one of the roles. No API route invites, so these rules are the page's. */
const checkInvite = formCheck(
  Type.Object({
    email: Type.String({
      minLength: 1,
      maxLength: 254,
      pattern: '^[^\\s@]+@[^\\s@]+$',
      'x-pattern-message': 'must be an email address, like name@example.com',
    }),
    role: StringEnum(ROLES),
  }),
  {
    email: { label: 'Email', id: 'invite-email' },
    role: { label: 'Role', id: 'invite-role', messages: { enum: 'choose one from the list' } },
  },
);

/** What each role may do, as the README words it. */
const ROLE_HELP: Record<(typeof ROLES)[number], string> = {
  viewer: 'reads everything of the company',
  editor: 'also approves, rejects and edits posts, tags, accounts and schedules',
  admin: 'also manages API keys, webhooks and users',
};

const usersPath = `${BASE}/users`;

/**
 * Runs a users-service action on `userId` as the signed-in admin (company, actor and self
 * from the session); its refusals (ActionRefused) answer as pages of their own.
 */
async function onUser<T>(
  req: FastifyRequest,
  act: (companyId: string, actor: ReturnType<typeof actorOf>, selfId: string) => Promise<T>,
): Promise<T> {
  const me = userOf(req);
  return act(me.companyId, actorOf(me), me.userId);
}

export function userPages(ctx: AppContext) {
  async function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: FieldError[]; form?: { email: string; role: string } } = {},
  ) {
    const me = userOf(req);
    const users = await listCompanyUsers(ctx.db, ctx.clock, me.companyId);
    return page(req, reply, 'users.eta', 'Users', {
      users,
      me: me.userId,
      enabledAdmins: users.filter((u) => u.role === 'admin' && u.disabledAt === null).length,
      roles: ROLES.map((role) => ({ role, help: ROLE_HELP[role] })),
      done: takeFlash(ctx, req, reply),
      errors: extra.errors ?? [],
      form: extra.form ?? { email: '', role: 'viewer' },
      mailOn: ctx.mailing !== null,
    });
  }

  /** The page showing a one-time link, once: the answer to the POST that made it. */
  function linkPage(
    req: FastifyRequest,
    reply: FastifyReply,
    user: UserInfo,
    link: IssuedUserLink,
    kind: 'invited' | 'reset',
  ) {
    const title =
      kind === 'invited' ? `Invitation for ${user.email}` : `New sign-in link for ${user.email}`;
    return page(req, reply, 'user-link.eta', title, {
      kind,
      target: user,
      url: userWelcomeUrl(ctx.config.publicUrl, link.token),
      expiresAt: link.expiresAt,
      hours: USER_LINK_MS / 3_600_000,
      emailed: link.emailed,
    });
  }

  async function userOr404(companyId: string, userId: string): Promise<UserInfo> {
    const user = await getCompanyUser(ctx.db, companyId, userId);
    if (!user) throw new ActionRefused('not_found', 'Not found.');
    return user;
  }

  /** Why an admin may not disable or reset this user (itself, the last admin), or null. */
  async function blockedFor(
    me: { userId: string; companyId: string },
    target: UserInfo,
    action: 'disable' | 'reset',
  ): Promise<string | null> {
    if (target.userId === me.userId) {
      return action === 'disable'
        ? 'You cannot disable yourself; ask another admin.'
        : 'You cannot reset yourself here; ask another admin.';
    }
    if (action === 'disable' && target.role === 'admin' && target.disabledAt === null) {
      const users = await listCompanyUsers(ctx.db, ctx.clock, me.companyId);
      const admins = users.filter((u) => u.role === 'admin' && u.disabledAt === null);
      if (admins.length <= 1) {
        return `${target.email} is the company's only enabled admin: make another user admin before you disable them.`;
      }
    }
    return null;
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/users', { config: ADMIN }, async (req, reply) => listPage(req, reply));

    app.post('/users', { config: ADMIN, schema: { body: InviteForm } }, async (req, reply) => {
      const me = userOf(req);
      const form = { email: (req.body.email ?? '').trim(), role: req.body.role ?? '' };
      const checked = checkInvite(form);
      if (!checked.ok) {
        reply.code(400);
        return listPage(req, reply, { errors: checked.errors, form });
      }
      try {
        const { user, link } = await inviteCompanyUser(
          ctx.db,
          ctx.clock,
          me.companyId,
          checked.value,
          actorOf(me),
          ctx.mailing,
        );
        return linkPage(req, reply, user, link, 'invited');
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        const taken = /already exists/.test(err.message);
        reply.code(taken ? 409 : 400);
        const message = taken
          ? `Email: ${form.email.toLowerCase()} already has a Slotline account (an email belongs to one user).`
          : `Email: ${err.message}.`;
        return listPage(req, reply, {
          errors: [fieldError('email', message, 'invite-email')],
          form,
        });
      }
    });

    app.post(
      '/users/:userId/role',
      { config: ADMIN, schema: { params: UserParams, body: RoleForm } },
      async (req, reply) => {
        const result = await onUser(req, (companyId, actor, selfId) =>
          changeUserRole(
            ctx.db,
            ctx.clock,
            companyId,
            req.params.userId,
            req.body.role ?? '',
            actor,
            selfId,
          ),
        );
        const { user, changed, from } = result;
        setFlash(
          ctx,
          req,
          reply,
          changed
            ? `${user.email} is now ${user.role} (was ${from}).`
            : `${user.email} is ${user.role} already; nothing changed.`,
        );
        return redirect(req, reply, usersPath);
      },
    );

    for (const action of ['disable', 'reset'] as const) {
      app.get(
        `/users/:userId/${action}`,
        { config: ADMIN, schema: { params: UserParams } },
        async (req, reply) => {
          const me = userOf(req);
          const target = await userOr404(me.companyId, req.params.userId);
          const blocked = await blockedFor(me, target, action);
          return page(
            req,
            reply,
            `user-${action}.eta`,
            `${action === 'disable' ? 'Disable' : 'Reset'} ${target.email}`,
            { target, blocked, hours: USER_LINK_MS / 3_600_000 },
          );
        },
      );
    }

    app.post(
      '/users/:userId/disable',
      { config: ADMIN, schema: { params: UserParams } },
      async (req, reply) => {
        const result = await onUser(req, (companyId, actor, selfId) =>
          disableCompanyUser(ctx.db, ctx.clock, companyId, req.params.userId, actor, selfId),
        );
        setFlash(
          ctx,
          req,
          reply,
          result.changed
            ? `${result.user.email} is disabled: signed out everywhere, and can no longer sign in.`
            : `${result.user.email} was disabled already.`,
        );
        return redirect(req, reply, usersPath);
      },
    );

    app.post(
      '/users/:userId/reset',
      { config: ADMIN, schema: { params: UserParams } },
      async (req, reply) => {
        const result = await onUser(req, (companyId, actor, selfId) =>
          resetCompanyUser(
            ctx.db,
            ctx.clock,
            companyId,
            req.params.userId,
            actor,
            selfId,
            ctx.mailing,
          ),
        );
        // The link exists only in this response (its token is stored as a digest).
        return linkPage(req, reply, result.user, result.link, 'reset');
      },
    );
  };
}
