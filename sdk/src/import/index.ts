// The posts import format (`@slotline/sdk/import`): reading a file's rows, their bodies for
// POST /v2/posts and their Idempotency-Keys, for `slotline-client import` and any other
// importer (an import page) that should read files the same way.
export {
  COLUMNS,
  ImportFileError,
  REQUIRED_COLUMNS,
  isMediaUrl,
  readBoolean,
  readHeader,
  readImportCsv,
  readInteger,
  readNumber,
  splitHashtags,
  splitList,
} from './format.ts';
export type { Column, CsvRow, Problem } from './format.ts';
export {
  DEFAULT_SLIDE_TEXT_Y,
  buildBody,
  isProblem,
  mediaEntries,
  readAccountRef,
  readRow,
  resolveAccount,
  resolveTag,
} from './rows.ts';
export type {
  AccountEntry,
  AccountRef,
  CreatePostBody,
  Lookups,
  Platform,
  RowDraft,
  Slide,
  SlideDraft,
  TagEntry,
  TextStyle,
} from './rows.ts';
export { importKey, importKeys } from './key.ts';
