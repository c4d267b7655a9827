// Webhook endpoints of a company (GET/POST/PATCH/DELETE /v2/webhooks...): their URL, the
// event types they want, and their signing secrets, sealed at rest.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx, WebhookEndpointsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import {
  EMPTY_ALLOW_LIST,
  hostIsAllowed,
  localHostReason,
  judgeAddress,
  parseAddress,
  parseHopUrl,
  RemoteFetchError,
} from '../../media/remote-fetch.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import { failPendingOf } from './webhook-deliveries.repository.ts';
import * as repo from './webhook-endpoints.repository.ts';
import { newSecret } from './webhook-signing.rules.ts';
import {
  MAX_ENDPOINTS,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type WebhookEndpointOut,
} from './webhooks.schemas.ts';

/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function toEndpoint(row: WebhookEndpointsTable): WebhookEndpointOut {
  return {
    webhookId: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.event_types) as WebhookEndpointOut['events'],
    status: row.disabled_at ? 'disabled' : row.failing_since ? 'failing' : 'active',
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    lastSuccessAt: row.last_success_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The URL as deliveries will use it: http(s) without credentials; https unless the operator
 * allows the host (REMOTE_FETCH_ALLOW); an address literal must be one deliveries may reach.
 * Host names are resolved and judged again at every delivery, so a name that later points
 * inside is refused then.
 */
export function checkEndpointUrl(ctx: AppContext, text: string): string {
  let url: URL;
  try {
    url = parseHopUrl(text, undefined, 0);
  } catch (err) {
    const why = err instanceof RemoteFetchError ? err.message.replace(/^sourceUrl /, '') : '';
    throw new ApiError('invalid_request', `/url ${why || 'is not a valid absolute URL'}`);
  }
  const allow = ctx.config.remoteFetchAllow;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = parseAddress(host);
  if (literal !== null && !judgeAddress(literal, false, allow).ok) {
    throw new ApiError(
      'invalid_request',
      '/url points to a private, loopback, link-local or reserved address',
      { hint: 'Use a public https URL of your receiver.' },
    );
  }
  // Names that only ever resolve inside are refused now, not at the first delivery.
  const local = literal === null ? localHostReason(host) : null;
  if (local !== null && !hostIsAllowed(allow, host)) {
    throw new ApiError('invalid_request', `/url host "${host}" ${local}`, {
      hint: 'Use a public https URL of your receiver; an operator can allow a local host in REMOTE_FETCH_ALLOW.',
    });
  }
  // Plain http only where the operator allowed the host or its (private) address.
  const operatorAllowed =
    literal === null
      ? hostIsAllowed(allow, host)
      : !judgeAddress(literal, false, EMPTY_ALLOW_LIST).ok;
  if (url.protocol !== 'https:' && !operatorAllowed) {
    throw new ApiError('invalid_request', '/url must use https', {
      hint: 'Serve your receiver over TLS; deliveries carry signed business events.',
    });
  }
  return url.toString();
}

function notFound(webhookId: string): ApiError {
  return new ApiError('webhook_not_found', `webhook ${webhookId} was not found`);
}

/** The company's endpoint, or `webhook_not_found` (another company's too). */
async function findOrThrow(
  db: DbOrTx,
  companyId: string,
  webhookId: string,
): Promise<WebhookEndpointsTable> {
  const row = await repo.findEndpoint(db, companyId, webhookId);
  if (!row) throw notFound(webhookId);
  return row;
}

/** A change made by a person is logged (activity) in its transaction, never the secret. */
function note(
  tx: Parameters<typeof recordActivity>[0],
  companyId: string,
  actor: Actor | undefined,
  action: string,
  webhookId: string,
  url: string,
  now: Date,
): Promise<void> | undefined {
  if (!actor) return undefined;
  return recordActivity(tx, companyId, actor, { action, target: webhookId, detail: url }, now);
}

export async function createWebhook(
  ctx: AppContext,
  companyId: string,
  input: CreateWebhookInput,
  actor?: Actor,
): Promise<WebhookEndpointOut & { secret: string }> {
  const url = checkEndpointUrl(ctx, input.url);
  const now = ctx.clock.now();
  const at = now.toISOString();
  const secret = newSecret();
  const row: WebhookEndpointsTable = {
    id: newId('wh', now.getTime()),
    company_id: companyId,
    url,
    description: input.description ?? '',
    event_types: JSON.stringify(input.events),
    secret: ctx.sealer.seal(secret),
    previous_secret: null,
    previous_secret_expires_at: null,
    disabled_at: null,
    disabled_reason: null,
    failing_since: null,
    last_success_at: null,
    created_at: at,
    updated_at: at,
  };
  await ctx.db.transaction().execute(async (tx) => {
    if ((await repo.countEndpoints(tx, companyId)) >= MAX_ENDPOINTS) {
      throw new ApiError(
        'webhook_limit_reached',
        `the company already has ${MAX_ENDPOINTS} webhook endpoints, the most it may have`,
      );
    }
    await repo.insertEndpoint(tx, row);
    await note(tx, companyId, actor, 'webhook.created', row.id, url, now);
  });
  return { ...toEndpoint(row), secret };
}

export async function getWebhook(
  db: Db,
  companyId: string,
  webhookId: string,
): Promise<WebhookEndpointOut> {
  return toEndpoint(await findOrThrow(db, companyId, webhookId));
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * One page of a keyset-paged list: the cursor names the (time, id) of the last row shown,
 * bound to `scope`; `read` pages in whatever order its list uses.
 */
export async function keysetPage<R extends { id: string }, O>(
  ctx: AppContext,
  scope: string,
  query: PageQuery,
  timeOf: (row: R) => string,
  read: (last: [string, string] | null, limit: number) => Promise<R[]>,
  out: (row: R) => O,
): Promise<{ data: O[]; nextCursor: string | null }> {
  const now = ctx.clock.now();
  const limit = query.limit ?? 50;
  const last = query.cursor
    ? (ctx.cursors.decode(scope, query.cursor, now, 2) as [string, string])
    : null;
  const rows = await read(last, limit + 1);
  const data = rows.slice(0, limit);
  const end = data[data.length - 1];
  return {
    data: data.map(out),
    nextCursor:
      rows.length > limit && end ? ctx.cursors.encode(scope, [timeOf(end), end.id], now) : null,
  };
}

export function listWebhooks(
  ctx: AppContext,
  companyId: string,
  query: PageQuery,
): Promise<{ data: WebhookEndpointOut[]; nextCursor: string | null }> {
  return keysetPage(
    ctx,
    cursorScope(companyId, 'webhooks', {}),
    query,
    (r: WebhookEndpointsTable) => r.created_at,
    (after, limit) => repo.pageEndpoints(ctx.db, companyId, after, limit),
    toEndpoint,
  );
}

export async function updateWebhook(
  ctx: AppContext,
  companyId: string,
  webhookId: string,
  input: UpdateWebhookInput,
  actor?: Actor,
): Promise<WebhookEndpointOut> {
  const url = input.url === undefined ? undefined : checkEndpointUrl(ctx, input.url);
  const now = ctx.clock.now();
  const at = now.toISOString();
  const patch = {
    ...(url === undefined ? {} : { url }),
    ...(input.events === undefined ? {} : { event_types: JSON.stringify(input.events) }),
    ...(input.description === undefined ? {} : { description: input.description }),
    updated_at: at,
  };
  if (!actor) {
    await findOrThrow(ctx.db, companyId, webhookId);
    await repo.updateEndpoint(ctx.db, companyId, webhookId, patch);
  } else {
    await ctx.db.transaction().execute(async (tx) => {
      const row = await findOrThrow(tx, companyId, webhookId);
      await repo.updateEndpoint(tx, companyId, webhookId, patch);
      await note(tx, companyId, actor, 'webhook.updated', webhookId, url ?? row.url, now);
    });
  }
  return getWebhook(ctx.db, companyId, webhookId);
}

/**
 * Disabling stops deliveries at once: pending ones fail (replay them after enabling).
 * Enabling clears the failing state; events from then on are delivered.
 */
export async function setWebhookEnabled(
  db: Db,
  clock: Clock,
  companyId: string,
  webhookId: string,
  enabled: boolean,
  actor?: Actor,
): Promise<WebhookEndpointOut> {
  const now = clock.now();
  const at = now.toISOString();
  await db.transaction().execute(async (tx) => {
    const row = await findOrThrow(tx, companyId, webhookId);
    if (enabled && row.disabled_at) {
      await repo.updateEndpoint(tx, companyId, webhookId, {
        disabled_at: null,
        disabled_reason: null,
        failing_since: null,
        updated_at: at,
      });
      await note(tx, companyId, actor, 'webhook.enabled', webhookId, row.url, now);
    } else if (!enabled && !row.disabled_at) {
      await repo.disable(tx, webhookId, 'disabled on request', at);
      await failPendingOf(tx, webhookId, at);
      await note(tx, companyId, actor, 'webhook.disabled', webhookId, row.url, now);
    }
  });
  return getWebhook(db, companyId, webhookId);
}

export async function deleteWebhook(
  db: Db,
  clock: Clock,
  companyId: string,
  webhookId: string,
  actor?: Actor,
): Promise<void> {
  const now = clock.now();
  const deleted = await db.transaction().execute(async (tx) => {
    const row = await repo.findEndpoint(tx, companyId, webhookId);
    if (!row || !(await repo.deleteEndpoint(tx, companyId, webhookId))) return false;
    await note(tx, companyId, actor, 'webhook.deleted', webhookId, row.url, now);
    return true;
  });
  if (!deleted) throw notFound(webhookId);
}

/** A new secret; the current one keeps signing too for ROTATION_OVERLAP_MS. */
export async function rotateWebhookSecret(
  ctx: AppContext,
  companyId: string,
  webhookId: string,
  actor?: Actor,
): Promise<{ webhookId: string; secret: string; previousSecretExpiresAt: string }> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const expires = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const secret = newSecret();
  await ctx.db.transaction().execute(async (tx) => {
    const row = await findOrThrow(tx, companyId, webhookId);
    await repo.updateEndpoint(tx, companyId, webhookId, {
      secret: ctx.sealer.seal(secret),
      previous_secret: row.secret,
      previous_secret_expires_at: expires,
      updated_at: at,
    });
    await note(tx, companyId, actor, 'webhook.secret_rotated', webhookId, row.url, now);
  });
  return { webhookId, secret, previousSecretExpiresAt: expires };
}

/** The secrets a delivery at `now` is signed with: the current one, then the previous. */
export function signingSecrets(ctx: AppContext, row: WebhookEndpointsTable, now: Date): string[] {
  const secrets = [ctx.sealer.open(row.secret)];
  if (
    row.previous_secret &&
    row.previous_secret_expires_at &&
    row.previous_secret_expires_at > now.toISOString()
  ) {
    secrets.push(ctx.sealer.open(row.previous_secret));
  }
  return secrets;
}

export { findOrThrow as findWebhookOrThrow };
