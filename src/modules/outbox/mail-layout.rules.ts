// Every mail the service sends has one shape, in plain text and in HTML from the same
// description: a heading, a few paragraphs, at most one action (a button and its address
// written out, since some readers show no buttons), why it was sent, and how to stop it.
// Security messages (a password reset, an invitation) cannot be turned off and say so;
// every other message carries List-Unsubscribe with a one-click POST (RFC 8058). The HTML
// is a single table in the console's colours with inline styles, as mail readers need.
// Everything interpolated is escaped; nothing here reads the clock or the database.

export interface MailContent {
  subject: string;
  heading: string;
  paragraphs: readonly string[];
  action?: { label: string; url: string };
  /** Why the person received it ("You were invited to Acme on Slotline."). */
  why: string;
  /** How to stop it: an unsubscribe address, or a security message that cannot be stopped. */
  stop: { unsubscribeUrl: string; preferencesUrl?: string } | { security: true };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

const COLORS = {
  bg: '#f6f8fa',
  surface: '#ffffff',
  ink: '#1b1f24',
  muted: '#57606a',
  line: '#d0d7de',
  accent: '#0b5cad',
  onAccent: '#ffffff',
};
const FONT = "system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A subject on one line: header injection is impossible and readers show it whole. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

function footerLines(content: MailContent): string[] {
  if ('security' in content.stop) {
    return [content.why, 'This is a security message about your sign-in; it cannot be turned off.'];
  }
  const lines = [content.why, `Stop these messages: ${content.stop.unsubscribeUrl}`];
  if (content.stop.preferencesUrl) {
    lines.push(`Choose what you receive: ${content.stop.preferencesUrl}`);
  }
  return lines;
}

function textOf(content: MailContent): string {
  const parts = [content.heading, '', ...content.paragraphs.flatMap((p) => [p, ''])];
  if (content.action) parts.push(`${content.action.label}: ${content.action.url}`, '');
  parts.push('--', ...footerLines(content));
  return `${parts.join('\n')}\n`;
}

function htmlOf(content: MailContent): string {
  const c = COLORS;
  const p = (text: string, style = '') =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:${c.ink};${style}">${escapeHtml(text)}</p>`;
  const action = content.action
    ? `<p style="margin:8px 0 24px"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${c.accent};color:${c.onAccent};font-weight:600;text-decoration:none">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:${c.muted};word-break:break-all">${escapeHtml(content.action.url)}</p>`
    : '';
  const stop =
    'security' in content.stop
      ? escapeHtml('This is a security message about your sign-in; it cannot be turned off.')
      : `<a href="${escapeHtml(content.stop.unsubscribeUrl)}" style="color:${c.muted}">Stop these messages</a>` +
        (content.stop.preferencesUrl
          ? ` · <a href="${escapeHtml(content.stop.preferencesUrl)}" style="color:${c.muted}">Choose what you receive</a>`
          : '');
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(oneLine(content.subject))}</title></head>`,
    `<body style="margin:0;padding:24px 12px;background:${c.bg};font-family:${FONT}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:${c.surface};border:1px solid ${c.line};border-radius:8px">`,
    `<tr><td style="padding:24px 24px 8px;font-size:14px;font-weight:700;color:${c.accent}">Slotline</td></tr>`,
    `<tr><td style="padding:8px 24px 8px">`,
    `<h1 style="margin:0 0 16px;font-size:20px;line-height:1.25;color:${c.ink}">${escapeHtml(content.heading)}</h1>`,
    ...content.paragraphs.map((text) => p(text)),
    action,
    '</td></tr>',
    `<tr><td style="padding:16px 24px 24px;border-top:1px solid ${c.line};font-size:13px;line-height:1.5;color:${c.muted}">`,
    `<p style="margin:0 0 8px">${escapeHtml(content.why)}</p>`,
    `<p style="margin:0">${stop}</p>`,
    '</td></tr></table></body></html>',
  ].join('\n');
}

/** The message as sent: its subject, text, HTML and the headers its kind needs. */
export function renderMail(content: MailContent): RenderedMail {
  const headers: Record<string, string> = {};
  if (!('security' in content.stop)) {
    headers['List-Unsubscribe'] = `<${content.stop.unsubscribeUrl}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  return {
    subject: oneLine(content.subject),
    text: textOf(content),
    html: htmlOf(content),
    headers,
  };
}

/**
 * A moment as mail writes it, in the reader's timezone when known ("Thu 3 Dec 2026, 14:00
 * UTC"): a message is read later and elsewhere, so it always names its zone.
 */
export function mailDateTime(iso: string, timeZone: string | null = null): string {
  const zone = timeZone ?? 'UTC';
  const date = new Date(iso);
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
  const name =
    zone === 'UTC'
      ? 'UTC'
      : (new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'short' })
          .formatToParts(date)
          .find((part) => part.type === 'timeZoneName')?.value ?? zone);
  return `${text.replace(/^(\w+), /, '$1 ')} ${name}`;
}
