// The company pages' layout. It stands apart from dashboard.plugin.ts, which registers
// every page: pages import this file, the plugin imports the pages, and neither is
// imported back, so the plugin and its pages form no cycle.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { inLayout } from '../kit/session.ts';
import { BASE, maskToken } from './session.ts';
import { clockface, displayTimezone } from './time.ts';

/**
 * Renders a page inside the layout, with what every page shows (user, CSRF token, nav), as
 * HTML that is never cached (pages/kit/session.ts inLayout).
 */
export function page(
  req: FastifyRequest,
  reply: FastifyReply,
  template: string,
  title: string,
  data: Record<string, unknown> = {},
) {
  return inLayout(reply, template, 'layout.eta', {
    ...data,
    title,
    // Each page carries its own masking of the CSRF token (session.ts maskToken).
    user: req.dashboardUser
      ? { ...req.dashboardUser, csrfToken: maskToken(req.dashboardUser.csrfToken) }
      : null,
    base: BASE,
    path: req.url,
    // Times in the reader's display timezone (time.ts).
    clock: clockface(displayTimezone(req)),
  });
}
