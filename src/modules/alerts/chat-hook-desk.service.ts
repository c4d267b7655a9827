// One side's chat alert hooks bound to who acts on them: what the hook pages of the
// dashboard (a company's admin) and of the console (an operator) work through.
import type { AppContext } from '../../context.ts';
import {
  addChatHook,
  changeChatHook,
  getChatHook,
  listChatHooks,
  removeChatHook,
  type ChatHook,
  type HookOwner,
  type NewChatHook,
} from './chat-hooks.service.ts';
import { sendTestAlert } from './chat-alerts.service.ts';

export interface ChatHookDesk {
  list(): Promise<ChatHook[]>;
  get(hookId: string): Promise<ChatHook>;
  add(input: NewChatHook): Promise<ChatHook>;
  change(hookId: string, input: { label: string; kinds: readonly string[] }): Promise<ChatHook>;
  remove(hookId: string): Promise<ChatHook>;
  test(hookId: string): Promise<ChatHook>;
}

export function chatHookDesk(ctx: AppContext, owner: HookOwner): ChatHookDesk {
  return {
    list: () => listChatHooks(ctx.db, owner.companyId),
    get: (hookId) => getChatHook(ctx.db, owner.companyId, hookId),
    add: (input) => addChatHook(ctx, owner, input),
    change: (hookId, input) => changeChatHook(ctx, owner, hookId, input),
    remove: (hookId) => removeChatHook(ctx, owner, hookId),
    test: (hookId) => sendTestAlert(ctx, owner, hookId),
  };
}
