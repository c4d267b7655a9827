import { Type, type Static } from 'typebox';
import { DateTime, HttpUrl, Nullable, ref, StringEnum } from '../../schemas/common.ts';
import { ACCOUNT_STATUSES, WORKER_STATUSES } from './account-status.rules.ts';
import { NextCursor, pageQuery } from '../../schemas/pagination.ts';

export const Platform = StringEnum(['platformA', 'platformB'], {
  description: '`platformA` is the short-video network, `platformB` the photo and video network',
});

export { ACCOUNT_STATUSES } from './account-status.rules.ts';

const STATUS_DESCRIPTION =
  '`pending_setup`: created, waiting for its worker to set it up (every new account starts ' +
  'here); `warming_up`: its worker is warming it up with `warmup.searchTerms`; `active`: its ' +
  'worker can post; `paused`: paused by the company (POST /v2/accounts/{accountId}/pause); ' +
  '`disconnected`: its worker lost access. The worker moves it between `pending_setup`, ' +
  '`warming_up`, `active` and `disconnected`; only the company pauses and resumes. Items are ' +
  'released to `warming_up` and `active` accounts only; the others keep theirs `queued`.';

export const Account = Type.Object(
  {
    accountId: Type.String(),
    platform: Platform,
    username: Type.String(),
    displayName: Type.String(),
    status: StringEnum(ACCOUNT_STATUSES, { description: STATUS_DESCRIPTION }),
    statusSince: Type.String({
      format: 'date-time',
      description: 'When the account entered its current `status`',
    }),
    statusReason: Nullable(
      Type.String({
        description:
          'What the worker said with its last report (why it is `disconnected`, say); null ' +
          'while paused or when it gave no reason',
      }),
    ),
    timezone: Type.String({ description: 'IANA timezone of the worker operating the account' }),
    followers: Type.Number(),
    postsToday: Type.Number({ description: 'Releases in the account’s local day' }),
    dailyCap: Type.Number({ description: 'At most 4 releases per local day' }),
    queueDepth: Type.Number({ description: 'Items waiting to be released' }),
    nextWindow: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'Start of the account’s next posting window; null while nothing is released to it ' +
          '(`pending_setup`, `paused`, `disconnected`)',
      }),
    ),
    lastPostAt: Nullable(DateTime),
    bio: Type.String(),
    bioUrl: Nullable(Type.String()),
    profilePictureUrl: Type.String(),
    warmup: Type.Object({ searchTerms: Type.Array(Type.String()) }),
    createdAt: DateTime,
  },
  { $id: 'Account', additionalProperties: false },
);
export type AccountOut = Static<typeof Account>;

export const CreateAccountBody = Type.Object(
  {
    platform: Platform,
    username: Type.String({
      minLength: 1,
      maxLength: 30,
      pattern: '^[A-Za-z0-9._]+$',
      'x-pattern-message': 'must contain only letters, digits, "." and "_" (no "@")',
      description: 'Handle on the platform, without "@"; unique per platform in the company',
    }),
    displayName: Type.String({ minLength: 1, maxLength: 80 }),
    bio: Type.String({ minLength: 1, maxLength: 220 }),
    profilePictureUrl: HttpUrl('Profile picture, an http(s) URL'),
    bioUrl: Type.Optional(HttpUrl('Link shown in the bio')),
    warmup: Type.Object(
      {
        searchTerms: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
          minItems: 1,
          maxItems: 5,
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type CreateAccountInput = Static<typeof CreateAccountBody>;

export const ListAccountsQuery = Type.Object(
  { platform: Type.Optional(Platform), ...pageQuery(100) },
  { additionalProperties: false },
);
export type ListAccountsInput = Static<typeof ListAccountsQuery>;

export const AccountPage = Type.Object(
  { data: Type.Array(ref(Account)), nextCursor: NextCursor },
  { additionalProperties: false },
);
export type AccountPageOut = Static<typeof AccountPage>;

export const AccountIdParams = Type.Object(
  { accountId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

/** One change of an account's status (GET /v2/accounts/{accountId}/status-history). */
export const AccountStatusEvent = Type.Object(
  {
    status: StringEnum(ACCOUNT_STATUSES, { description: 'The account’s status after the change' }),
    reportedStatus: StringEnum(['pending_setup', ...WORKER_STATUSES], {
      description:
        'What the worker had last reported after the change; a resume returns the account to it',
    }),
    source: StringEnum(['worker', 'company', 'system'], {
      description:
        '`worker`: a report of the account’s worker; `company`: a pause or resume through the ' +
        'API; `system`: the account’s creation (or its status when history began)',
    }),
    reason: Nullable(Type.String({ description: 'The reason the worker gave, if any' })),
    at: DateTime,
  },
  { $id: 'AccountStatusEvent', additionalProperties: false },
);
export type StatusEventOut = Static<typeof AccountStatusEvent>;

export const StatusHistoryQuery = Type.Object(
  { ...pageQuery(25) },
  { additionalProperties: false },
);
export type StatusHistoryInput = Static<typeof StatusHistoryQuery>;

export const StatusHistoryPage = Type.Object(
  { data: Type.Array(ref(AccountStatusEvent)), nextCursor: NextCursor },
  { additionalProperties: false },
);
