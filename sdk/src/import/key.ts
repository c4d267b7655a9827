// The Idempotency-Key of each row of an import file (SPEC 4.2): the same row of the same
// file always sends the same key, so running an import again (or after a failure half way)
// replays the posts already created instead of creating them twice.
import { createHash } from 'node:crypto';
import { COLUMNS, type CsvRow } from './format.ts';

/**
 * `import-` and the hex SHA-256 of the file's base name, the row's non-empty cells by
 * column name (so reordering columns or adding an empty one changes nothing) and how many
 * identical rows come before it in the file. The row's number is left out on purpose:
 * inserting or deleting other rows must not give every row below a new key (and a post a
 * second time); two identical rows still get two keys, by their occurrence. 71 characters.
 */
export function importKey(fileName: string, cells: CsvRow['cells'], occurrence: number): string {
  const pairs = COLUMNS.filter((c) => cells[c] !== undefined).map((c) => [c, cells[c]]);
  const digest = createHash('sha256')
    .update(JSON.stringify([fileName, pairs, occurrence]))
    .digest('hex');
  return `import-${digest}`;
}

/** The key of every row of a file, by row number. */
export function importKeys(fileName: string, rows: readonly CsvRow[]): Map<number, string> {
  const seen = new Map<string, number>();
  const keys = new Map<number, string>();
  for (const { row, cells } of rows) {
    const same = JSON.stringify(COLUMNS.map((c) => cells[c] ?? null));
    const occurrence = (seen.get(same) ?? 0) + 1;
    seen.set(same, occurrence);
    keys.set(row, importKey(fileName, cells, occurrence));
  }
  return keys;
}
