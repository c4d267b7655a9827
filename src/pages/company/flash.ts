// The company dashboard's notices after an action: the flash mechanics of
// pages/kit/flash.ts, kept in the dashboard's own cookie and bound to the user's session.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { setScopedFlash, takeScopedFlash, type FlashScope } from '../kit/flash.ts';
import { BASE } from './session.ts';

/** The company dashboard's pages: the signed-in user's session. */
export const DASHBOARD_FLASH: FlashScope = {
  cookie: 'slotline_notice',
  path: BASE,
  owner: (req) => req.dashboardUser,
};

/** Sets the notice the next page shows (the page a redirect leads to). */
export function setFlash(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  message: string,
): void {
  setScopedFlash(ctx, req, reply, message, DASHBOARD_FLASH);
}

/** The notice set for this page, or null; it is cleared, so a reload shows it no more. */
export function takeFlash(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
): string | null {
  return takeScopedFlash(ctx, req, reply, DASHBOARD_FLASH);
}
