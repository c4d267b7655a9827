// What every section of `npm run probe:hardening` is given: two real service processes on
// one fresh PostgreSQL database, a full-scope company key, and a place to record defects.
import type { api, HttpAnswer } from '../../test/helpers/replicas.ts';

export type Call = ReturnType<typeof api>;

export interface ProbeRun {
  /** Base URLs of the two service processes (`http://127.0.0.1:<port>`). */
  bases: string[];
  /** One API client per process, each with the same full-scope company key. */
  calls: Call[];
  /** The company key itself, for requests the clients do not make. */
  keySecret: string;
  companyId: string;
  /** The PostgreSQL database both processes use (for setup through the services). */
  databaseUrl: string;
  /** The environment the processes were started with (DATABASE_URL, PUBLIC_URL, ...). */
  env: Record<string, string>;
  /** 33 viewer users of the company with their passwords. */
  users: { email: string; password: string }[];
  /** Records a defect: the probe exits 1 when any was recorded. */
  defect(text: string): void;
  /** The answer is the error envelope, its requestId equal to X-Request-Id. */
  envelopeOk(res: HttpAnswer): boolean;
}

export interface Section {
  name: string;
  run(probe: ProbeRun): Promise<void>;
}
