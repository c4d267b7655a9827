// The console's layout. It stands apart from operator.plugin.ts, which registers every
// page: pages import this file, the plugin imports the pages, and neither is imported
// back, so the plugin and its pages form no cycle.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { inLayout, maskToken } from '../http/page-session.ts';
import { OPERATOR_BASE } from './session.ts';

/** Times as operators read them: UTC, to the minute. */
export function utc(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '';
}

/**
 * Renders a console page inside its layout, with what every page shows (the operator, its
 * CSRF token masked afresh, the navigation of a signed-in operator).
 */
export function consolePage(
  req: FastifyRequest,
  reply: FastifyReply,
  template: string,
  title: string,
  data: Record<string, unknown> = {},
) {
  const session = req.operatorSession;
  return inLayout(reply, template, 'layout.eta', {
    ...data,
    title,
    session: session ? { ...session, csrfToken: maskToken(session.csrfToken) } : null,
    // Navigation only once both factors passed: a half signed-in browser sees none.
    signedIn: session?.step === 'full',
    base: OPERATOR_BASE,
    path: req.url,
    utc,
  });
}
