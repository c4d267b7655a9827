// When each API key was last used. Noting a use is a map write on the request path; the
// times go to the database in one batch a few seconds later (and when the service stops),
// each moving a key's last use forward only, so replicas flushing in any order agree.
import type { Batcher } from '../../context.ts';
import type { Db } from '../../db/types.ts';
import { startPeriodic, type Periodic } from '../../lib/periodic.ts';
import * as repo from './keys.repository.ts';

export class KeyUse implements Batcher {
  private pending = new Map<string, number>();
  private timer: Periodic | null = null;

  constructor(
    private readonly db: Db,
    private readonly flushMs = 5000,
    /** Receives a batch that failed to be written. */
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  note(keyId: string, at: Date): void {
    const ms = at.getTime();
    if ((this.pending.get(keyId) ?? 0) < ms) this.pending.set(keyId, ms);
  }

  start(): void {
    if (this.timer || this.flushMs <= 0) return;
    this.timer = startPeriodic(() => this.flush(), this.flushMs, { onError: this.onError });
  }

  async stop(): Promise<void> {
    await this.timer?.stop();
    this.timer = null;
    await this.flush();
  }

  /** Writes the uses noted since the last flush. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    for (const [keyId, ms] of batch) {
      await repo.noteUsed(this.db, keyId, new Date(ms).toISOString());
    }
  }
}
