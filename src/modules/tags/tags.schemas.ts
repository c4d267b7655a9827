import { Type, type Static } from 'typebox';
import { DateTime, ref, StringEnum } from '../../schemas/common.ts';
import { NextCursor, pageQuery } from '../../schemas/pagination.ts';

export const TAG_COLORS = [
  'slate',
  'blue',
  'cyan',
  'green',
  'amber',
  'orange',
  'rose',
  'violet',
] as const;

const Color = StringEnum(TAG_COLORS, { description: 'Dashboard display color' });
const Name = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '\\S',
  'x-pattern-message': 'must contain a visible character',
  description: 'Unique within the company, compared case-insensitively',
});

export const ContentTag = Type.Object(
  {
    tagId: Type.String(),
    contentGroupId: Type.String({ description: '`tag:<tagId>`, used in posts and list filters' }),
    name: Type.String(),
    color: Color,
    archived: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'ContentTag', additionalProperties: false },
);
export type ContentTagOut = Static<typeof ContentTag>;

export const CreateTagBody = Type.Object(
  { name: Name, color: Type.Optional(Color) },
  { additionalProperties: false },
);
export type CreateTagInput = Static<typeof CreateTagBody>;

export const UpdateTagBody = Type.Object(
  {
    name: Type.Optional(Name),
    color: Type.Optional(Color),
    archived: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateTagInput = Static<typeof UpdateTagBody>;

export const TagIdParams = Type.Object(
  { tagId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const ListTagsQuery = Type.Object({ ...pageQuery(100) }, { additionalProperties: false });
export type ListTagsInput = Static<typeof ListTagsQuery>;

export const TagPage = Type.Object(
  { data: Type.Array(ref(ContentTag)), nextCursor: NextCursor },
  { additionalProperties: false },
);
export type TagPageOut = Static<typeof TagPage>;

export const DeletedTag = Type.Object(
  {
    tagId: Type.String(),
    updatedPosts: Type.Number({ description: 'Posts the tag was removed from' }),
  },
  { additionalProperties: false },
);
