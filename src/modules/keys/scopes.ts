/** SPEC 5: the scopes a key can carry. Scopes never imply one another (DECISIONS 7). */
export const SCOPES = [
  'posts:read',
  'posts:write',
  'accounts:read',
  'accounts:write',
  'analytics:read',
  'usage:read',
  'workspace:read',
  'media:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
