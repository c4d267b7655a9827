import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable, StringEnum } from '../../schemas/common.ts';
import { Platform } from '../accounts/index.ts';

const WorkspaceAccount = Type.Object(
  {
    accountId: Type.String(),
    platform: Platform,
    username: Type.String(),
    displayName: Type.String(),
    status: Type.String(),
    timezone: Type.String(),
    followers: Type.Number(),
    postsToday: Type.Number(),
    dailyCap: Type.Number(),
    queueDepth: Type.Number(),
    nextWindow: Nullable(DateTime),
    lastPostAt: Nullable(DateTime),
    niche: Type.String(),
    warmupSearchTerms: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

const Image = Type.Object(
  {
    imageId: Type.String(),
    folderId: Type.String(),
    label: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    width: Type.Number(),
    height: Type.Number(),
    createdAt: DateTime,
  },
  { additionalProperties: false },
);

const Pack = Type.Object(
  {
    packId: Type.String(),
    folderId: Type.String(),
    name: Type.String(),
    description: Type.String(),
    color: Type.String(),
    imageIds: Type.Array(Type.String()),
    imageFit: StringEnum(['fit', 'fill']),
    useImagesOnce: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const Workspace = Type.Object(
  {
    version: Type.Number({ description: 'Data-shape version of this response; 1' }),
    refreshedAt: DateTime,
    company: Type.Object(
      {
        companyId: Type.String(),
        name: Type.String(),
        description: Type.String(),
        website: Type.String(),
      },
      { additionalProperties: false },
    ),
    accounts: Type.Array(WorkspaceAccount),
    folders: Type.Array(
      Type.Object(
        {
          folderId: Type.String(),
          name: Type.String(),
          createdAt: DateTime,
          images: Type.Array(Image),
          packs: Type.Array(Pack),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type WorkspaceOut = Static<typeof Workspace>;

export const MediaUrlsBody = Type.Object(
  {
    items: Type.Array(Type.Object({ folderId: Id, imageId: Id }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 100,
    }),
    expiresInSeconds: Type.Optional(
      Type.Integer({ minimum: 60, maximum: 3600, description: 'Defaults to 900' }),
    ),
  },
  { additionalProperties: false },
);
export type MediaUrlsInput = Static<typeof MediaUrlsBody>;

export const MediaUrls = Type.Object(
  {
    expiresAt: DateTime,
    data: Type.Array(
      Type.Object(
        { folderId: Type.String(), imageId: Type.String(), url: Type.String({ format: 'uri' }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type MediaUrlsOut = Static<typeof MediaUrls>;

export const SignedQuery = Type.Object(
  {
    expires: Type.Integer({ minimum: 0, description: 'Expiry, Unix seconds' }),
    signature: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const ImageIdParams = Type.Object(
  { imageId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
