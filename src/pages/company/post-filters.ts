// The posts list's filters, under the page's own names (`status`, `account`, `tag`) and by
// the API's rules, with `rejected` among the statuses (post-states.ts): the list and its CSV
// export read them the same way. Any account id is taken: one the company does not have
// answers "not found", whatever it looks like.
import type { FastifySchemaValidationError } from 'fastify';
import { Type, type Static } from 'typebox';
import { validationError } from '../../http/validation.ts';
import { StringEnum } from '../../schemas/common.ts';
import { ListPostsQuery, type ListPostsInput } from '../../modules/posts/index.ts';
import { SHOWN_STATUSES, type ShownStatus } from './post-states.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

export const PostFilterFields = {
  status: Type.Optional(StringEnum(SHOWN_STATUSES)),
  account: Type.Optional(Type.String()),
  tag: ListPostsQuery.properties.contentGroupId,
};
export const PostFilterQuery = Type.Object(PostFilterFields);

export type PostFilters = Pick<ListPostsInput, 'accountId' | 'contentGroupId'> & {
  status?: ShownStatus;
};

/** A filter outside the API's rules: a 400 naming the filter as the page shows it. */
export function filterRefusal(errors: FastifySchemaValidationError[], part: string): Error {
  const [first] = errors;
  if (first?.instancePath === '/status') {
    const sent = 'data' in first ? String(first.data) : '';
    return new ActionRefused('invalid', `Status "${sent}" is not one of the post statuses.`);
  }
  if (first?.instancePath === '/tag') {
    return new ActionRefused('invalid', 'The tag filter must be a tag, a template or "untagged".');
  }
  return validationError(errors, part);
}

export function filtersOf(query: Static<typeof PostFilterQuery>): PostFilters {
  return {
    ...(query.status ? { status: query.status } : {}),
    ...(query.account ? { accountId: query.account } : {}),
    ...(query.tag ? { contentGroupId: query.tag } : {}),
  };
}
