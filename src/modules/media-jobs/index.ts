// The media-jobs module's face: media work as rows, written by the modules whose posts and
// uploads it serves and claimed by the media loop (dispatch/media-loop.ts).
export {
  MAX_ATTEMPTS,
  MEDIA_JOB_KINDS,
  addMediaJob,
  claimMediaJobs,
  finishMediaJob,
  mediaBacklog,
  mediaJobsWritten,
  onMediaJobsAdded,
  releaseMediaJob,
  renewMediaJobs,
  retryDelayMs,
  retryMediaJob,
} from './media-jobs.service.ts';
export type { MediaBacklog, MediaJob, MediaJobKind, MediaOutcome } from './media-jobs.service.ts';
