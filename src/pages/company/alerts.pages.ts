// Chat alerts (dashboard pages, admins only): the company's incoming-webhook URLs of Slack,
// Mattermost or Rocket.Chat, each with the alerts it receives and how its last delivery
// went; admins add one (label, URL, alert kinds), change its label and kinds, send it a
// test and remove it. The URL is shown only masked (host and last 4 characters). The pages
// are the kit's, shared with the console; changes go through the alerts module, which logs
// them in the company's activity log.
import type { AppContext } from '../../context.ts';
import {
  ALERT_KIND_LABELS,
  COMPANY_ALERT_KINDS,
  ChatHookError,
  MAX_HOOKS,
  MAX_LABEL,
  MAX_URL,
  chatHookDesk,
  defaultKinds,
} from '../../modules/alerts/index.ts';
import { chatHookPages } from '../kit/chat-hooks.ts';
import { DASHBOARD_FLASH } from './flash.ts';
import { page } from './layout.ts';
import { BASE, actorOf, userOf } from './session.ts';

export function alertPages(ctx: AppContext) {
  return chatHookPages(ctx, {
    here: `${BASE}/alerts`,
    config: { role: 'admin' },
    flash: DASHBOARD_FLASH,
    kinds: COMPANY_ALERT_KINDS.map((kind) => ({ kind, label: ALERT_KIND_LABELS[kind] })),
    // Any company's defaults: every company kind but the daily summary.
    defaultKinds: defaultKinds(''),
    limits: { maxHooks: MAX_HOOKS, maxLabel: MAX_LABEL, maxUrl: MAX_URL },
    desk(req) {
      const user = userOf(req);
      return chatHookDesk(ctx, { companyId: user.companyId, actor: actorOf(user) });
    },
    problemsOf: (err) => (err instanceof ChatHookError ? err.problems : null),
    render: page,
  });
}
