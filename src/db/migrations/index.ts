import type { Migration, MigrationProvider } from 'kysely';
import { foundation } from './0001-foundation.ts';
import { uploads } from './0002-uploads.ts';

/** Every migration in order; names are never changed once released. */
const ALL: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-uploads': uploads,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => ALL,
};
