// The company pages' layout. It stands apart from dashboard.plugin.ts, which registers
// every page: pages import this file, the plugin imports the pages, and neither is
// imported back, so the plugin and its pages form no cycle.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BASE, maskToken } from './session.ts';

/** Renders a page inside the layout, with what every page shows (user, CSRF token, nav). */
export function page(
  req: FastifyRequest,
  reply: FastifyReply,
  template: string,
  title: string,
  data: Record<string, unknown> = {},
) {
  return reply
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .view(
      template,
      {
        ...data,
        title,
        // Each page carries its own masking of the CSRF token (session.ts maskToken).
        user: req.dashboardUser
          ? { ...req.dashboardUser, csrfToken: maskToken(req.dashboardUser.csrfToken) }
          : null,
        base: BASE,
        path: req.url,
      },
      // Per page, not global: @fastify/view refuses a per-page layout beside a global one,
      // and the workers' pages have their own (worker.pages.ts).
      { layout: 'layout.eta' },
    );
}
