// The posts import file (sdk/README.md, "Import posts from a CSV file"): its columns, how a
// cell's lists and values read, and the file itself read into rows numbered as a
// spreadsheet numbers them. Pure: no network and no file system, so an import page can
// read the same format the same way.
import { parse } from 'csv-parse/sync';

/** The columns, under their canonical names; a header names them in any letter case. */
export const COLUMNS = [
  'media',
  'accounts',
  'caption',
  'hashtags',
  'tags',
  'priority',
  'skipApproval',
  'notes',
  'platformBPostFormat',
  'slides',
  'slideTextY',
  'slideStyle',
] as const;
export type Column = (typeof COLUMNS)[number];

/** Columns every file has: a post needs media and accounts. */
export const REQUIRED_COLUMNS: readonly Column[] = ['media', 'accounts'];

/** What is wrong with a row (or, from the API, with the post it would create). */
export interface Problem {
  /** A code of the API's catalog where one fits (`account_not_found`), else the importer's. */
  code: string;
  message: string;
  /** The next step; every problem has one. */
  hint: string;
  /** The column (or the API's field) the problem is in. */
  field?: string;
}

/** A file that cannot be imported at all: bad CSV, or a header naming unknown columns. */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}

/** One record of the file, with its cells by column. */
export interface CsvRow {
  /** As a spreadsheet shows it: the header is row 1, the first record row 2. */
  row: number;
  /** The non-empty cells by column (a cell of only spaces counts as empty). */
  cells: Partial<Record<Column, string>>;
  /** Problems of the record as a whole (more cells than the header has). */
  problems: Problem[];
}

const BY_LOWER = new Map<string, Column>(COLUMNS.map((c) => [c.toLowerCase(), c]));

/** The header's columns; throws ImportFileError naming unknown, repeated or missing ones. */
export function readHeader(names: readonly string[]): Column[] {
  const columns: Column[] = [];
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const column = BY_LOWER.get(name.toLowerCase());
    if (column === undefined) unknown.push(name === '' ? '(an empty name)' : name);
    else if (columns.includes(column)) throw new ImportFileError(`column ${column} appears twice`);
    else columns.push(column);
  }
  if (unknown.length > 0) {
    throw new ImportFileError(
      `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the columns are ${COLUMNS.join(', ')}`,
    );
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    throw new ImportFileError(`the header has no ${missing.join(' or ')} column`);
  }
  return columns;
}

/**
 * Reads an import file: RFC 4180, a byte order mark tolerated, a header row first. Records
 * whose cells are all empty (a spreadsheet's blank rows) are left out but still counted,
 * so every row keeps the number a spreadsheet shows.
 */
export function readImportCsv(text: string): { columns: Column[]; rows: CsvRow[] } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true });
  } catch (err) {
    throw new ImportFileError(`not a readable CSV file: ${(err as Error).message}`);
  }
  const [header, ...body] = records;
  if (header === undefined) throw new ImportFileError('the file is empty: it needs a header row');
  const columns = readHeader(header);
  const rows: CsvRow[] = [];
  for (const [i, record] of body.entries()) {
    if (record.every((cell) => cell.trim() === '')) continue;
    const cells: CsvRow['cells'] = {};
    for (const [j, column] of columns.entries()) {
      const cell = record[j] ?? '';
      if (cell.trim() !== '') cells[column] = cell;
    }
    const problems: Problem[] = [];
    if (record.length > columns.length && record.slice(columns.length).some((c) => c !== '')) {
      problems.push({
        code: 'invalid_row',
        message: `the row has ${record.length} cells, the header ${columns.length}`,
        hint: 'Quote cells that contain commas ("a, b"), or add the missing column names.',
      });
    }
    rows.push({ row: i + 2, cells, problems });
  }
  return { columns, rows };
}

/** A `|`-separated list: parts trimmed, empty parts dropped. */
export function splitList(cell: string | undefined): string[] {
  if (cell === undefined) return [];
  return cell
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Hashtags separated by `|` or white space; one leading `#` of each is dropped. */
export function splitHashtags(cell: string | undefined): string[] {
  if (cell === undefined) return [];
  return cell
    .split(/[|\s]+/)
    .map((tag) => tag.replace(/^#/, ''))
    .filter((tag) => tag !== '');
}

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

/** true/false/yes/no/1/0 in any letter case; an empty cell is false; else null. */
export function readBoolean(cell: string | undefined): boolean | null {
  if (cell === undefined) return false;
  const value = cell.trim().toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  return null;
}

/** A whole number written in digits (an optional minus sign); else null. */
export function readInteger(cell: string): number | null {
  const value = cell.trim();
  if (!/^-?\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** A decimal number (`12`, `12.5`, `-3`); else null. */
export function readNumber(cell: string): number | null {
  const value = cell.trim();
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(value)) return null;
  return Number(value);
}

/** Whether a media entry is a URL for the service to fetch rather than a file path. */
export function isMediaUrl(entry: string): boolean {
  return /^https?:\/\//i.test(entry);
}
