import { Type } from 'typebox';

/** `limit` and `cursor` query parameters shared by every list (SPEC 8: up to 100 per page). */
export function pageQuery(defaultLimit: number) {
  return {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: defaultLimit, description: 'Page size' }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'nextCursor from the previous page',
      }),
    ),
  };
}

export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Send back unchanged as `cursor` for the next page; null on the last page',
});
