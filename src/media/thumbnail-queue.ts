// A small in-process job runner that keeps thumbnail work off the request path: the
// upload service enqueues a job (read the blob, make the thumbnail, store it) and
// answers at once. Generic on purpose: it knows nothing about uploads or the database.
//
// Decisions:
// - One job at a time by default: thumbnails are CPU-bound (sharp, ffmpeg) and share the
//   process and host with the API.
// - Bounded: at most `maxQueued` jobs wait; past that `enqueue` throws QueueFullError at
//   once, so the caller decides (skip, retry later) instead of memory growing unbounded.
// - A failing job is handed to `onError` and the queue moves on; nothing a job does can
//   reject into the caller or crash the process.
// - Jobs start on a later turn of the event loop (setImmediate), never inside the
//   `enqueue` call, so even a job's synchronous prefix stays out of the request.
// - `close` refuses new jobs, drops those not started and waits for the running ones;
//   dropped work is lost by design (thumbnails can be made again), and counted.

export interface ThumbnailQueueOptions {
  /** Jobs running at once; default 1. */
  concurrency?: number;
  /** Jobs waiting to start (running ones not counted); default 1000. */
  maxQueued?: number;
  /** Receives what a job threw or rejected with. */
  onError: (error: unknown) => void;
}

export type ThumbnailJob = () => Promise<void>;

export class QueueFullError extends Error {
  readonly code = 'queue_full';
  constructor(readonly limit: number) {
    super(`the thumbnail queue is full (${limit} jobs waiting)`);
    this.name = 'QueueFullError';
  }
}

export class QueueClosedError extends Error {
  readonly code = 'queue_closed';
  constructor() {
    super('the thumbnail queue is closed');
    this.name = 'QueueClosedError';
  }
}

export class ThumbnailQueue {
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly onError: (error: unknown) => void;
  private readonly waiting: ThumbnailJob[] = [];
  private active = 0;
  private pumpScheduled = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(options: ThumbnailQueueOptions) {
    const concurrency = options.concurrency ?? 1;
    const maxQueued = options.maxQueued ?? 1000;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
    }
    if (!Number.isInteger(maxQueued) || maxQueued < 0) {
      throw new RangeError(`maxQueued must be a non-negative integer, got ${maxQueued}`);
    }
    this.concurrency = concurrency;
    this.maxQueued = maxQueued;
    this.onError = options.onError;
  }

  /** Jobs waiting to start. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Jobs running now. */
  get running(): number {
    return this.active;
  }

  /**
   * Schedules `job`. Throws QueueFullError when `maxQueued` jobs already wait and
   * QueueClosedError after `close`; never throws what the job itself throws.
   */
  enqueue(job: ThumbnailJob): void {
    if (this.closed) throw new QueueClosedError();
    if (this.waiting.length >= this.maxQueued) throw new QueueFullError(this.maxQueued);
    this.waiting.push(job);
    this.schedulePump();
  }

  /** Resolves once no job is waiting or running (immediately when already so). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Refuses new jobs, drops the ones not yet started and resolves once the running ones
   * have finished, with the number dropped.
   */
  async close(): Promise<{ dropped: number }> {
    this.closed = true;
    const dropped = this.waiting.length;
    this.waiting.length = 0;
    await this.idle();
    return { dropped };
  }

  /**
   * Hands `error` to `onError`, never throwing: for work done on the queue's behalf
   * outside a job (say, recording that a job could not be queued).
   */
  report(error: unknown): void {
    try {
      this.onError(error);
    } catch {
      // A failing error handler has nowhere further to report to; the queue must go on.
    }
  }

  private isIdle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.active < this.concurrency) {
      const job = this.waiting.shift();
      if (!job) break;
      this.active += 1;
      void this.run(job);
    }
    if (this.isIdle()) this.notifyIdle();
  }

  private async run(job: ThumbnailJob): Promise<void> {
    try {
      await job();
    } catch (error) {
      this.report(error);
    } finally {
      this.active -= 1;
      if (this.waiting.length > 0) this.schedulePump();
      else if (this.isIdle()) this.notifyIdle();
    }
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
