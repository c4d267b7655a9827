// Notices after an action ("Tag “Launch” created."): the handler that acted sets a flash
// and redirects to the plain page, which shows it once. The text travels in a short-lived
// cookie, never in the address, so a link cannot make a page say anything. The cookie is
// MACed with a secret of the session it was set for (its CSRF token, which only the server
// and that session's pages know), so nothing but the server can produce one that shows,
// and it never shows in another session. Each family of pages has its own scope.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { hmac, safeEqual } from '../../lib/crypto.ts';
import { pageCookieOptions } from './session.ts';

/** How long a flash waits for the page it leads to. */
const FLASH_SECONDS = 60;
/** Longer notices are cut: a cookie holds about 4 KB and a notice is a sentence. */
const MAX_CHARS = 300;

/** A session a flash belongs to: its CSRF token keys the flash's MAC. */
export interface FlashOwner {
  csrfToken: string;
}

/** Where a kind of page keeps its flash, and whose session it belongs to there. */
export interface FlashScope {
  cookie: string;
  path: string;
  owner(req: FastifyRequest): FlashOwner | null;
}

function mac(scope: FlashScope, owner: FlashOwner, payload: string): string {
  return hmac(owner.csrfToken, `flash\n${scope.cookie}\n${payload}`).toString('base64url');
}

function secure(ctx: AppContext): boolean {
  return ctx.config.publicUrl.startsWith('https:');
}

/** Sets the notice the next page of `scope` shows (the page a redirect leads to). */
export function setScopedFlash(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  message: string,
  scope: FlashScope,
): void {
  const owner = scope.owner(req);
  if (!owner) return;
  const text = message.length > MAX_CHARS ? `${message.slice(0, MAX_CHARS - 1)}…` : message;
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + FLASH_SECONDS;
  const payload = Buffer.from(JSON.stringify([text, expires])).toString('base64url');
  reply.setCookie(
    scope.cookie,
    `${payload}.${mac(scope, owner, payload)}`,
    pageCookieOptions(secure(ctx), scope.path, FLASH_SECONDS),
  );
}

/**
 * The notice set for this page, or null; it is cleared, so a reload shows it no more. Only a
 * GET shows one: a form answered with its own errors leaves the notice for the next page.
 */
export function takeScopedFlash(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  scope: FlashScope,
): string | null {
  const value = req.cookies[scope.cookie];
  if (value === undefined || req.method !== 'GET') return null;
  reply.clearCookie(scope.cookie, pageCookieOptions(secure(ctx), scope.path));
  const owner = scope.owner(req);
  const [payload = '', sent = ''] = value.split('.');
  if (!owner || !safeEqual(Buffer.from(sent), Buffer.from(mac(scope, owner, payload)))) {
    return null;
  }
  // The MAC matched, so the payload is one this server wrote.
  const [text, expires] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
    string,
    number,
  ];
  return ctx.clock.now().getTime() / 1000 <= expires ? text : null;
}
