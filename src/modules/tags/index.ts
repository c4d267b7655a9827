// The tags module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  assignGroups,
  checkGroups,
  groupProblems,
  groupsOfPosts,
  replacePostTags,
} from './content-groups.service.ts';
export type { CheckedGroups } from './content-groups.service.ts';
export { tagSchemas, tagsRoutes } from './tags.routes.ts';
export { CreateTagBody, TAG_COLORS } from './tags.schemas.ts';
export type { CreateTagInput } from './tags.schemas.ts';
export {
  createTag,
  deleteTag,
  getTag,
  listAllTags,
  listTags,
  tagPostCount,
  updateTag,
} from './tags.service.ts';
