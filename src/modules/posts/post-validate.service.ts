// POST /v2/posts/validate: a dry run of a create. It lists every problem a create with the
// body would meet, through the create's own checks (post-checks.service.ts) and the same
// schema, and writes nothing: no post, queue item, idempotency key, event or count.
import type { Principal } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { bodyIssue, compileAllErrors, type BodyIssue } from '../../lib/schema-errors.ts';
import { planOf, postQuotaProblem } from '../usage/index.ts';
import { checkPost, type IdList } from './post-checks.service.ts';
import { CreatePostBody, type PostValidationOut, type Problem } from './posts.schemas.ts';

const checkBody = compileAllErrors(CreatePostBody);
const checkObject = compileAllErrors({ type: 'object' });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every rule of the create body the value breaks. A value of the wrong type is reported for
 * its type alone: the other rules of that field (an enum, a range) say nothing more.
 */
function schemaIssues(value: Record<string, unknown>): BodyIssue[] {
  if (checkBody(value)) return [];
  const errors = checkBody.errors ?? [];
  const mistyped = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return errors.filter((e) => e.keyword === 'type' || !mistyped.has(e.instancePath)).map(bodyIssue);
}

/** The create's own refusal of a body that is not an object: `/ must be an object (got ...)`. */
function notAnObject(body: unknown): ApiError {
  // No body at all reads as null, as the create's validation sees it.
  checkObject(body ?? null);
  const [first] = checkObject.errors ?? [];
  if (!first) return new ApiError('invalid_request', '/ must be an object');
  const { message, hint } = bodyIssue(first);
  return new ApiError('invalid_request', message, { hint });
}

function problemOf(err: ApiError): Problem {
  return {
    code: err.code,
    message: err.message,
    hint: err.hint,
    ...(err.field === undefined ? {} : { field: err.field }),
  };
}

/**
 * Every problem a `POST /v2/posts` with this body would meet, each with the code, message
 * and hint that create would answer with (and the field's JSON pointer): schema violations
 * first, then the media, accounts, content tags, feed format and quota checks. The checks
 * of a field's content run on what of it is well-formed. Reads only. A body that is not a
 * JSON object is refused with `invalid_request`, as a create refuses it.
 */
export async function validatePost(
  ctx: AppContext,
  principal: Principal,
  body: unknown,
): Promise<PostValidationOut> {
  if (!isObject(body)) throw notAnObject(body);
  // A copy: the schema check fills in defaults, and the caller's value stays as it was sent.
  const value = structuredClone(body);
  const issues = schemaIssues(value);
  // The checks of a field's content run on what of it is well-formed: a field with no
  // schema issue at or under its pointer, or in a list of ids, each item without one.
  const broken = (pointer: string) =>
    issues.some((i) => i.pointer === pointer || i.pointer.startsWith(`${pointer}/`));
  const usable = <T>(name: string): T | undefined =>
    broken(`/${name}`) ? undefined : (value[name] as T | undefined);
  const ids = (name: string): IdList | undefined => {
    const list = value[name];
    if (!Array.isArray(list)) return undefined;
    return list.map((id: unknown, i) =>
      typeof id === 'string' && !broken(`/${name}/${i}`) ? id : undefined,
    );
  };

  const companyId = principal.companyId;
  const accountIds = ids('accountIds');
  const checked = await checkPost(ctx, companyId, {
    media: ids('media'),
    accountIds,
    slides: broken('/slides') ? false : usable('slides'),
    contentGroupIds: ids('contentGroupIds'),
    platformBPostFormat: usable('platformBPostFormat'),
  });
  const problems: Problem[] = [
    ...issues.map((i) => ({
      code: 'invalid_request' as const,
      message: i.message,
      hint: i.hint,
      field: i.pointer,
    })),
    ...checked.problems.map(problemOf),
  ];
  if (accountIds && !broken('/accountIds')) {
    // A create makes one queue item per account; each counts against both caps.
    const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);
    const n = new Set(accountIds).size;
    const quota = await postQuotaProblem(ctx.db, plan, companyId, ctx.clock.now(), n);
    if (quota) problems.push(problemOf(quota));
  }
  return { valid: problems.length === 0, problems };
}
