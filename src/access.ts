// Who a request acts for, and the checks that admit it: the principal types and scopes
// (SPEC 5) that both http/ (which admits requests) and the modules (which own keys,
// workers and the request meter) speak of. The modules implement `Access`; the
// composition root puts it in the context, so http/ verifies credentials without
// importing any module.

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
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A company API key, verified. */
export interface Principal {
  keyId: string;
  companyId: string;
  scopes: ReadonlySet<string>;
  plan: string;
  /** True when the key's company is suspended by an operator: the key is refused meanwhile. */
  suspended?: boolean;
}

/** A worker token, verified (DECISIONS 6). */
export interface WorkerPrincipal {
  workerId: string;
  name: string;
  timezone: string;
}

/** A company's daily request count after counting one more request. */
export interface MeterReading {
  count: number;
  limit: number;
  resetSeconds: number;
}

export interface Access {
  /**
   * The principal of a key verified before and unchanged since, without waiting on
   * anything; undefined when `verifyKey` must decide.
   */
  knownKey(secret: string): Principal | undefined;
  /** The principal behind a bearer secret, or null for anything not a live key. */
  verifyKey(secret: string): Promise<Principal | null>;
  /** The worker behind a worker token, or null for anything not a live token. */
  verifyWorker(token: string): Promise<WorkerPrincipal | null>;
  /** Counts one request of the principal's company against its plan's daily cap. */
  countRequest(principal: Principal, now: Date): MeterReading | Promise<MeterReading>;
  /** Notes that the key was used (its last use is written later, in a batch). */
  keyUsed(principal: Principal, now: Date): void;
}
