// The console's layout. It stands apart from operator.plugin.ts, which registers every
// page: pages import this file, the plugin imports the pages, and neither is imported
// back, so the plugin and its pages form no cycle.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { inLayout, maskToken } from '../kit/session.ts';
import { statusText } from './fields.ts';
import { OPERATOR_BASE } from './session.ts';

/** Times as operators read them: UTC, to the minute. */
export function utc(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '';
}

/** A share (0-1) as a percentage to a tenth; a dash when nothing was delivered. */
export function percent(ratio: number | null): string {
  return ratio === null ? '—' : `${Math.round(ratio * 1000) / 10}%`;
}

/** A span of time as people say it: "45 min", "5 h 10 min", "3 days 4 h". */
export function duration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} days ${hours % 24} h` : `${days} days`;
}

/**
 * A release-to-posted or release-to-claim percentile in minutes, read as the delivery
 * figures count it: the upper bound of a bucket, 1440 meaning a day or more.
 */
export function latency(minutes: number | null): string {
  if (minutes === null) return '—';
  return minutes >= 1440 ? 'a day or more' : `≤ ${minutes} min`;
}

/** `url` when it is an http(s) address a link may open; null for anything else. */
export function webUrl(url: string | null): string | null {
  return url !== null && /^https?:\/\//i.test(url) ? url : null;
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
    percent,
    duration,
    latency,
    statusText,
    webUrl,
  });
}
