import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses } from '../../schemas/common.ts';
import { AccountIdParams } from '../accounts/index.ts';
import { AccountSchedule, CompanySchedule, Schedule, ScheduleBody } from './schedules.schemas.ts';
import {
  getAccountSchedule,
  getCompanySchedule,
  setAccountSchedule,
  setCompanySchedule,
} from './schedules.service.ts';

export const scheduleSchemas = [Schedule];

const WRITE_ERRORS = [
  ...AUTH_ERRORS,
  'invalid_request',
  'unsupported_media_type',
  'request_too_large',
] as const;

export function schedulesRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/schedule',
      {
        config: { scopes: ['accounts:read'] },
        schema: {
          operationId: 'getCompanySchedule',
          tags: ['schedules'],
          summary: 'Read the company default posting schedule',
          description: 'Account overrides take precedence over this default.',
          response: { 200: CompanySchedule, ...errorResponses([...AUTH_ERRORS, 'not_found']) },
        },
      },
      async (req) => getCompanySchedule(ctx, principalOf(req).companyId),
    );

    app.patch(
      '/schedule',
      {
        config: { scopes: ['accounts:write'] },
        schema: {
          operationId: 'updateCompanySchedule',
          tags: ['schedules'],
          summary: 'Replace the company default posting schedule',
          description:
            'Account overrides are preserved. `schedule: null` restores the global rules ' +
            '(08:00, 11:00, 14:00, 17:00). Changes apply to future releases only.',
          body: ScheduleBody,
          response: { 200: CompanySchedule, ...errorResponses([...WRITE_ERRORS, 'not_found']) },
        },
      },
      async (req) => setCompanySchedule(ctx, principalOf(req).companyId, req.body),
    );

    app.get(
      '/accounts/:accountId/schedule',
      {
        config: { scopes: ['accounts:read'] },
        schema: {
          operationId: 'getAccountSchedule',
          tags: ['schedules'],
          summary: 'Read an account’s schedule override and effective schedule',
          params: AccountIdParams,
          response: {
            200: AccountSchedule,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'account_not_found']),
          },
        },
      },
      async (req) => getAccountSchedule(ctx, principalOf(req).companyId, req.params.accountId),
    );

    app.patch(
      '/accounts/:accountId/schedule',
      {
        config: { scopes: ['accounts:write'] },
        schema: {
          operationId: 'updateAccountSchedule',
          tags: ['schedules'],
          summary: 'Replace an account’s schedule override',
          description:
            'The override wins over the company default even if the default changes later. ' +
            '`schedule: null` clears it, so the account inherits the company default or the global ' +
            'rules; it does not pause posting.',
          params: AccountIdParams,
          body: ScheduleBody,
          response: {
            200: AccountSchedule,
            ...errorResponses([...WRITE_ERRORS, 'account_not_found']),
          },
        },
      },
      async (req) =>
        setAccountSchedule(ctx, principalOf(req).companyId, req.params.accountId, req.body),
    );
  };
}
