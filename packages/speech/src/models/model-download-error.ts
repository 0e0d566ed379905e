/** Why a model download failed; `resumable` says whether the partial file was kept for the next try. */
export type ModelDownloadFailure =
  /** The name cannot be a model file name. */
  | 'INVALID_NAME'
  /** The server has no such file (404). */
  | 'NOT_FOUND'
  /** Another download (or removal) of the same model is running, in this process or another. */
  | 'BUSY'
  /** No connection to the server at all: offline, DNS, refused. */
  | 'UNREACHABLE'
  /** The connection broke during the transfer. */
  | 'INTERRUPTED'
  /** No bytes arrived for the stall timeout. */
  | 'STALLED'
  /** The server answered with an unexpected status. */
  | 'HTTP_ERROR'
  /** The transfer ended with fewer (or more) bytes than announced. */
  | 'LENGTH_MISMATCH'
  /** The complete file is not a model whisper.cpp would load: deleted. */
  | 'INVALID_MODEL'
  /** The caller aborted. */
  | 'CANCELLED';

export class ModelDownloadError extends Error {
  constructor(
    readonly reason: ModelDownloadFailure,
    message: string,
    /** True when a `.part` file was kept and the next download of this model resumes from it. */
    readonly resumable = false,
  ) {
    super(message);
    this.name = 'ModelDownloadError';
  }
}

export function isModelDownloadError(error: unknown): error is ModelDownloadError {
  return error instanceof ModelDownloadError;
}
