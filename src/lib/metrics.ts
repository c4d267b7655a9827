// What the service's parts report for monitoring. Modules, runners and the media queues
// call this small interface and never a metrics library: the process that exposes
// metrics (`slotline serve` with METRICS_PORT or METRICS_TOKEN) passes a Prometheus
// implementation, everything else (the CLI, most tests) the no-op one.

export type UploadOutcome = 'ready' | 'failed';

/** A lane of media work (dispatch/media-loop.ts): the label of its metrics. */
export type MediaLane = 'thumbnails' | 'renders';

/** The metrics lane of each kind of media job. */
export const MEDIA_LANES = { render: 'renders', thumbnail: 'thumbnails' } as const satisfies Record<
  string,
  MediaLane
>;

export interface DispatchPassFacts {
  /** Items moved to `posting` by the pass. */
  released: number;
  /**
   * Per release, seconds from the moment it became due (its slot opened, or the item
   * became ready after that) until the pass released it.
   */
  lagSeconds: readonly number[];
  /** Released tasks failed because their report deadline passed (DECISIONS 6). */
  deadlinesMissed: { unclaimed: number; unconfirmed: number };
}

export interface MetricsRecorder {
  /** A dispatcher pass that finished, with its duration. */
  dispatchPass(facts: DispatchPassFacts, seconds: number): void;
  /** A dispatcher pass that threw. */
  dispatchFailed(): void;
  /** An upload left `pending`: validated and ready, or failed validation. */
  uploadCompleted(kind: string, outcome: UploadOutcome): void;
  /** Bytes of an upload stored (the signed PUT, the object a presigned PUT left, a remote fetch). */
  uploadBytes(bytes: number): void;
  /** A background media job that failed. */
  mediaJobFailed(lane: MediaLane): void;
  /**
   * A webhook attempt settled, with its duration; for a success, also the seconds from the
   * event's change to this delivery.
   */
  webhookAttempt(outcome: 'succeeded' | 'failed', seconds: number, lagSeconds?: number): void;
}

export const noopMetrics: MetricsRecorder = Object.freeze({
  dispatchPass: () => {},
  dispatchFailed: () => {},
  uploadCompleted: () => {},
  uploadBytes: () => {},
  mediaJobFailed: () => {},
  webhookAttempt: () => {},
});
