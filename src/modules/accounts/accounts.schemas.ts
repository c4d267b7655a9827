import { Type, type Static } from 'typebox';
import { DateTime, HttpUrl, Nullable, ref, StringEnum } from '../../schemas/common.ts';
import { NextCursor, pageQuery } from '../../http/pagination.ts';

export const Platform = StringEnum(['platformA', 'platformB'], {
  description: '`platformA` is the short-video network, `platformB` the photo and video network',
});

export const ACCOUNT_STATUSES = [
  'pending_setup',
  'warming_up',
  'active',
  'paused',
  'disconnected',
] as const;

export const Account = Type.Object(
  {
    accountId: Type.String(),
    platform: Platform,
    username: Type.String(),
    displayName: Type.String(),
    status: StringEnum(ACCOUNT_STATUSES),
    timezone: Type.String({ description: 'IANA timezone of the worker operating the account' }),
    followers: Type.Number(),
    postsToday: Type.Number({ description: 'Releases in the account’s local day' }),
    dailyCap: Type.Number({ description: 'At most 4 releases per local day' }),
    queueDepth: Type.Number({ description: 'Items waiting to be released' }),
    nextWindow: Nullable(DateTime),
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

export const AccountIdParams = Type.Object(
  { accountId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
