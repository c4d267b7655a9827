import { Type, type Static } from 'typebox';
import { Nullable, ref, StringEnum } from '../../schemas/common.ts';

export const Schedule = Type.Object(
  {
    windows: Type.Array(Type.String({ description: 'Worker-local time, HH:mm' }), {
      description: '1-4 windows, ascending, 08:00-17:00, at least 3 hours apart',
    }),
  },
  { $id: 'Schedule', additionalProperties: false },
);

const ScheduleInput = Type.Object(
  {
    windows: Type.Array(
      Type.String({
        pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
        'x-pattern-message': 'must be a time in HH:mm format',
      }),
      { minItems: 1, maxItems: 4 },
    ),
  },
  { additionalProperties: false },
);

export const ScheduleBody = Type.Object(
  {
    schedule: Nullable(ScheduleInput),
  },
  {
    additionalProperties: false,
    description:
      'Windows are worker-local HH:mm times: 1-4 entries, ascending, between 08:00 and 17:00 ' +
      'inclusive, consecutive entries at least 3 hours apart. `null` clears the schedule.',
  },
);
export type ScheduleInputBody = Static<typeof ScheduleBody>;

const Source = StringEnum(['account', 'company', 'global'], {
  description: 'Where the effective schedule comes from',
});

const common = {
  source: Source,
  scheduledPostsPerDay: Type.Number({ description: 'Windows of the effective schedule' }),
  maxPostsPerDay: Type.Number({ description: 'Always 4' }),
  timezoneMode: StringEnum(['worker_local']),
};

export const CompanySchedule = Type.Object(
  {
    companyId: Type.String(),
    schedule: Nullable(ref(Schedule)),
    ...common,
  },
  { additionalProperties: false },
);
export type CompanyScheduleOut = Static<typeof CompanySchedule>;

export const AccountSchedule = Type.Object(
  {
    accountId: Type.String(),
    schedule: Nullable(ref(Schedule)),
    companySchedule: Nullable(ref(Schedule)),
    effectiveSchedule: ref(Schedule),
    ...common,
    timezone: Type.String({ description: 'IANA timezone the windows are read in' }),
  },
  { additionalProperties: false },
);
export type AccountScheduleOut = Static<typeof AccountSchedule>;
