// The company pages' layout. It stands apart from dashboard.plugin.ts, which registers
// every page: pages import this file, the plugin imports the pages, and neither is
// imported back, so the plugin and its pages form no cycle.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { inLayout } from '../pages/kit/session.ts';
import { BASE, maskToken } from './session.ts';
import { clockface, displayTimezone } from './time.ts';

/**
 * Sends `template` inside `layout` as HTML that is never cached: every page of the
 * dashboard and of the workers' page goes out this way (pages/kit/session.ts).
 */
export { inLayout };

/** Renders a page inside the layout, with what every page shows (user, CSRF token, nav). */
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
