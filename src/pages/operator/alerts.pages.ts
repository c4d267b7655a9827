// Chat alerts of the operator side (console pages): the incoming-webhook URLs of Slack,
// Mattermost or Rocket.Chat that the service's own staff receive alerts at (tasks nobody
// claimed, posts that failed, accounts disconnected), each with the alerts it receives and
// how its last delivery went; operators add one, change its label and kinds, send it a test
// and remove it. The URL is shown only masked. The pages are the kit's, shared with the
// dashboard; every change is in the operator log.
import type { AppContext } from '../../context.ts';
import {
  ALERT_KIND_LABELS,
  ChatHookError,
  MAX_HOOKS,
  MAX_LABEL,
  MAX_URL,
  OPERATOR_ALERT_KINDS,
  chatHookDesk,
  defaultKinds,
} from '../../modules/alerts/index.ts';
import { chatHookPages } from '../kit/chat-hooks.ts';
import { consolePage } from './layout.ts';
import { OPERATOR_BASE, OPERATOR_FLASH, actorOf, sessionOf } from './session.ts';

export function alertPages(ctx: AppContext) {
  return chatHookPages(ctx, {
    here: `${OPERATOR_BASE}/alerts`,
    config: {},
    flash: OPERATOR_FLASH,
    kinds: OPERATOR_ALERT_KINDS.map((kind) => ({ kind, label: ALERT_KIND_LABELS[kind] })),
    defaultKinds: defaultKinds(null),
    limits: { maxHooks: MAX_HOOKS, maxLabel: MAX_LABEL, maxUrl: MAX_URL },
    desk: (req) => chatHookDesk(ctx, { companyId: null, actor: actorOf(sessionOf(req)) }),
    problemsOf: (err) => (err instanceof ChatHookError ? err.problems : null),
    render: consolePage,
  });
}
