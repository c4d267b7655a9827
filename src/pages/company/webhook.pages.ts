// One webhook endpoint (dashboard page): its details and delivery log, newest attempt first,
// each with the payload it carried, for every signed-in user; admins disable, enable,
// rotate its secret (shown once), send a test event, replay events and delete it. Each
// change is recorded in the activity log with it.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError, ERROR_CATALOG } from '../../errors.ts';
import {
  TEST_EVENT_TYPE,
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_TYPES,
  eventPayloads,
  listAttempts,
  sendTestEvent,
  replayEvents,
  ListAttemptsQuery,
  ReplayBody,
  deleteWebhook,
  getWebhook,
  rotateWebhookSecret,
  setWebhookEnabled,
  TEST_EVENTS_PER_MINUTE,
} from '../../modules/webhooks/index.ts';
import { checkWith } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

export const ADMIN = { config: { role: 'admin' as const } };
const LOG_PAGE = 50;
/** How much of an answer's body the log table shows. */
const ANSWER_CHARS = 200;

const WebhookParams = Type.Object({ webhookId: Type.String() });
/** The delivery log's pages: the API's cursor of the same log. */
const LogQuery = Type.Object({ cursor: ListAttemptsQuery.properties.cursor });
/** The replay form: an event ID or a time (a `datetime-local` field, read as UTC). */
const ReplayForm = Type.Object({
  eventId: Type.Optional(Type.String()),
  since: Type.Optional(Type.String()),
});
// What POST /v2/webhooks/{webhookId}/replay takes, by its own schema.
const checkReplay = checkWith(ReplayBody);

/**
 * A service refusal as a person reads it: the field path in words, and the hint unless it
 * is the API's generic one or names an API call the page does not use.
 */
export function messageOf(err: ApiError): string {
  const message = err.message
    .replace(/^\/url /, 'The URL ')
    .replace(/^\/eventId /, 'Event ')
    .replace(/^\/since /, 'The time ');
  const generic = err.hint === ERROR_CATALOG.invalid_request.hint || err.hint.includes('/v2/');
  return generic || !err.hint ? `${message}.` : `${message}. ${err.hint}`;
}

/** Whether `events` are every type an endpoint may choose ("All events"). */
export function allEvents(events: readonly string[]): boolean {
  return WEBHOOK_EVENT_TYPES.every((t) => events.includes(t));
}

/** An unknown endpoint and another company's answer alike. */
function notFoundOf(err: unknown): unknown {
  if (err instanceof ApiError && err.code === 'webhook_not_found') {
    return new ActionRefused('not_found', 'Not found.');
  }
  return err;
}

async function found<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw notFoundOf(err);
  }
}

/** A `datetime-local` value (read as UTC) or a full ISO time, as ISO; null if neither. */
function sinceOf(text: string): string | null {
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(text) ? `${text}Z` : text;
  if (!/^\d{4}-\d\d-\d\dT/.test(iso)) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function clip(text: string | null): string | null {
  if (text === null) return null;
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}…` : text;
}

export function webhookDetailPages(ctx: AppContext) {
  async function detailPage(
    req: FastifyRequest,
    reply: FastifyReply,
    webhookId: string,
    extra: {
      cursor?: string | undefined;
      replayError?: string;
      replay?: { eventId: string; since: string };
      testError?: string;
    } = {},
  ) {
    const user = userOf(req);
    const hook = await found(getWebhook(ctx.db, user.companyId, webhookId));
    const { cursor } = extra;
    const log = await listAttempts(ctx, user.companyId, webhookId, {
      limit: LOG_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    const payloads = await eventPayloads(
      ctx.db,
      user.companyId,
      log.data.map((a) => a.eventId),
    );
    const here = `${BASE}/webhooks/${encodeURIComponent(webhookId)}`;
    return page(req, reply, 'webhook.eta', `Webhook ${hook.url}`, {
      hook,
      here,
      allEvents: allEvents(hook.events),
      events: hook.events.map((type) => ({
        type,
        help: WEBHOOK_EVENTS[type].description.replaceAll('`', ''),
      })),
      attempts: log.data.map((a) => ({
        ...a,
        answer: clip(a.responseBody),
        // A test event goes out on request, not on a change: the log says so.
        triggerLabel: a.eventType === TEST_EVENT_TYPE ? 'test' : a.trigger,
        payload: payloads.get(a.eventId) ?? null,
      })),
      older: log.nextCursor ? `${here}?cursor=${encodeURIComponent(log.nextCursor)}` : null,
      paged: cursor !== undefined,
      canEdit: user.role === 'admin',
      done: takeFlash(ctx, req, reply),
      replayError: extra.replayError ?? null,
      replay: extra.replay ?? { eventId: '', since: '' },
      testError: extra.testError ?? null,
    });
  }

  function back(req: FastifyRequest, reply: FastifyReply, webhookId: string, done: string) {
    setFlash(ctx, req, reply, done);
    return redirect(req, reply, `${BASE}/webhooks/${encodeURIComponent(webhookId)}`);
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const adminRoute = { ...ADMIN, schema: { params: WebhookParams } };
    app.get(
      '/webhooks/:webhookId',
      { schema: { params: WebhookParams, querystring: LogQuery } },
      async (req, reply) => detailPage(req, reply, req.params.webhookId, req.query),
    );

    for (const [action, enabled] of [
      ['disable', false],
      ['enable', true],
    ] as const) {
      app.post(`/webhooks/:webhookId/${action}`, adminRoute, async (req, reply) => {
        const user = userOf(req);
        const { webhookId } = req.params;
        const before = await found(getWebhook(ctx.db, user.companyId, webhookId));
        const after = await found(
          setWebhookEnabled(ctx.db, ctx.clock, user.companyId, webhookId, enabled, actorOf(user)),
        );
        const changed = (before.status === 'disabled') !== (after.status === 'disabled');
        const done = enabled
          ? changed
            ? 'Endpoint enabled: events from now on are delivered.'
            : 'The endpoint is already enabled.'
          : changed
            ? 'Endpoint disabled: its pending deliveries failed.'
            : 'The endpoint is already disabled.';
        return back(req, reply, webhookId, done);
      });
    }

    app.post('/webhooks/:webhookId/rotate', adminRoute, async (req, reply) => {
      const user = userOf(req);
      const { webhookId } = req.params;
      const hook = await found(getWebhook(ctx.db, user.companyId, webhookId));
      const rotated = await found(
        rotateWebhookSecret(ctx, user.companyId, webhookId, actorOf(user)),
      );
      // Like creation: the new secret is only in this answer, never behind a redirect.
      return page(req, reply, 'webhook-secret.eta', 'Webhook secret rotated', {
        hook,
        secret: rotated.secret,
        rotated: { previousSecretExpiresAt: rotated.previousSecretExpiresAt },
      });
    });

    app.post('/webhooks/:webhookId/test', adminRoute, async (req, reply) => {
      const user = userOf(req);
      const { webhookId } = req.params;
      let sent;
      try {
        sent = await sendTestEvent(ctx.db, ctx.clock, user.companyId, webhookId, actorOf(user));
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'webhook_not_found') throw notFoundOf(err);
        reply.code(err.status);
        if (err.headers['Retry-After']) reply.header('retry-after', err.headers['Retry-After']);
        const testError =
          err.code === 'rate_limited'
            ? `At most ${TEST_EVENTS_PER_MINUTE} test events a minute go to one endpoint: wait ${err.headers['Retry-After'] ?? 60} seconds and send again.`
            : err.code === 'invalid_request'
              ? 'This endpoint is disabled: enable it to send it a test event.'
              : messageOf(err);
        return detailPage(req, reply, webhookId, { testError });
      }
      return back(
        req,
        reply,
        webhookId,
        `Test event ${sent.eventId} queued: it is in the delivery log below once sent (reload to see it).`,
      );
    });

    const replayRoute = { ...ADMIN, schema: { params: WebhookParams, body: ReplayForm } };
    app.post('/webhooks/:webhookId/replay', replayRoute, async (req, reply) => {
      const user = userOf(req);
      const { webhookId } = req.params;
      await found(getWebhook(ctx.db, user.companyId, webhookId));
      const replay = {
        eventId: (req.body.eventId ?? '').trim(),
        since: req.body.since ?? '',
      };
      const refuse = (status: number, replayError: string) => {
        reply.code(status);
        return detailPage(req, reply, webhookId, { replayError, replay });
      };
      // Exactly one of them, as the API's replay takes (its schema cannot say so).
      if ((replay.eventId === '') === (replay.since === '')) {
        return refuse(
          400,
          'Give either an event ID or a time to replay from: exactly one of them.',
        );
      }
      const since = replay.since ? sinceOf(replay.since.trim()) : null;
      if (replay.since && since === null) {
        return refuse(400, 'Enter the time as YYYY-MM-DDTHH:mm, in UTC.');
      }
      const checked = checkReplay(since === null ? { eventId: replay.eventId } : { since });
      if (!checked.ok) {
        return refuse(400, `An event ID has at most ${checked.broken.limit} characters.`);
      }
      let result;
      try {
        result = await replayEvents(ctx.db, ctx.clock, user.companyId, webhookId, checked.value);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'webhook_not_found') throw notFoundOf(err);
        return refuse(err.status, messageOf(err));
      }
      const done =
        `${result.replayed} event(s) queued for delivery again.` +
        (result.truncated ? ' That was the most one replay sends: replay again from later.' : '');
      return back(req, reply, webhookId, done);
    });

    app.get('/webhooks/:webhookId/delete', adminRoute, async (req, reply) => {
      const user = userOf(req);
      const hook = await found(getWebhook(ctx.db, user.companyId, req.params.webhookId));
      return page(req, reply, 'webhook-delete.eta', `Delete webhook ${hook.url}`, { hook });
    });

    app.post('/webhooks/:webhookId/delete', adminRoute, async (req, reply) => {
      const user = userOf(req);
      const { webhookId } = req.params;
      const hook = await found(getWebhook(ctx.db, user.companyId, webhookId));
      await found(deleteWebhook(ctx.db, ctx.clock, user.companyId, webhookId, actorOf(user)));
      setFlash(ctx, req, reply, `Endpoint ${hook.url} deleted.`);
      return redirect(req, reply, `${BASE}/webhooks`);
    });
  };
}
