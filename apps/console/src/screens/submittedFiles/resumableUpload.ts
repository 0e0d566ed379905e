import {
  type RecordingUploadState,
  type SendToCrmRequest,
  type UploadInProgress,
  type UploadOffsetMismatch,
  uploadChunkPolicy,
} from '@verbatim/contracts';
import { ApiRequestError } from '../../api/ApiRequestError';
import { fileSha1 } from './fileSha1';
import { createRecording, putChunk, uploadState } from './filesApi';
import { fileFingerprint, type UploadResumeStore } from './uploadResumeStore';

export interface UploadRequest {
  file: File;
  languageCode: string;
  /** Left out when empty (spec §3 Upload payload). */
  callbackUrl?: string;
  /** Send the transcript to this CRM contact once done. */
  crm?: SendToCrmRequest;
}

/** Where an upload stands: reading the file for its SHA-1, then sending its bytes. */
export interface UploadProgress {
  phase: 'hashing' | 'uploading';
  doneBytes: number;
  totalBytes: number;
}

/** How chunks are sent; {@link uploadChunkPolicy} of the contracts unless a test says otherwise. */
export interface UploadPolicy {
  chunkBytes: number;
  retries: number;
  firstRetryDelayMs: number;
  timeoutMs: number;
  /**
   * While the server is away (no answer at all, 502/503/504, or another request still writing the
   * upload), retries go on past `retries` until this much time was spent waiting: a server restart.
   */
  serverAwayBudgetMs: number;
}

/**
 * How long the server may be away before the upload gives up: a restart of the embedded server
 * takes seconds on an idle machine, but was measured at up to a minute on a loaded one.
 */
const serverAwayBudgetMs = 60_000;

/** The longest wait between two tries while the server is away, unless it names a later time. */
const maxServerAwayDelayMs = 4_000;

export interface UploadOptions {
  /** Aborting pauses: the next call with the same file resumes from what the server holds. */
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  /** Remembers the SHA-1 and placeholder of unfinished uploads (localStorage in the browser). */
  store?: UploadResumeStore;
  policy?: Partial<UploadPolicy>;
  /** Waits between retries; a timer unless a test gives its own. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Answers in a row that move no byte forward before the upload is declared stuck (e.g. every byte
 * is there but the server never calls the upload complete).
 */
const maxAnswersWithoutProgress = 3;

/**
 * Uploads a recording resumably (spec §4 Upload): the file's SHA-1, then the placeholder
 * (`POST /media/recordings`), which says how many bytes the server already holds, then the rest in
 * chunks (`PUT /media/{fileId}`) from there. A chunk that times out or meets a server failure is
 * sent again up to 3 times, 500 ms later the first time and twice as late each next time; while
 * the server is away (restarting: no answer, 502/503/504, or its previous request still holding
 * the upload) the same schedule goes on, at most 4 s apart or when the server says, for up to 60 s
 * of waiting; a chunk refused for its offset continues from the size `GET /media/{fileId}` gives.
 * Resolves with the completed upload; rejects with the {@link ApiRequestError} of a refusal, or
 * the abort reason when paused.
 */
export async function uploadRecording(
  request: UploadRequest,
  { signal, onProgress, store, policy: policyOverrides, wait = waitFor }: UploadOptions = {},
): Promise<RecordingUploadState> {
  const policy: UploadPolicy = {
    ...uploadChunkPolicy,
    serverAwayBudgetMs: serverAwayBudgetMs,
    ...policyOverrides,
  };
  const { file, languageCode, callbackUrl, crm } = request;
  const fingerprint = fileFingerprint(file);
  const remembered = store?.get(fingerprint);

  const report = (phase: UploadProgress['phase'], doneBytes: number) =>
    onProgress?.({ phase, doneBytes, totalBytes: file.size });

  report('hashing', remembered ? file.size : 0);
  const sha1 =
    remembered?.sha1 ?? (await fileSha1(file, { signal, onProgress: (bytes) => report('hashing', bytes) }));
  store?.set(fingerprint, { sha1 });

  // A placeholder begun with the same language and webhook is asked how many bytes it holds; the
  // server also finds it from the metadata (same name, size and SHA-1) when this browser forgot it.
  const target = targetOf(request);
  const held =
    remembered?.fileId !== undefined && remembered.target === target
      ? await heldState(remembered.fileId, signal)
      : undefined;
  let state: RecordingUploadState =
    held ??
    (await createRecording(
      {
        fileName: file.name,
        size: file.size,
        type: file.type,
        languageCode,
        sha1,
        callbackUrl,
        ...(crm ? { crm } : {}),
      },
      signal,
    ));
  store?.set(fingerprint, { sha1, fileId: state.fileId, target });

  let offset = state.size;
  let answersWithoutProgress = 0;
  report('uploading', offset);
  while (!state.isCompleted) {
    signal?.throwIfAborted();
    const chunk = file.slice(offset, Math.min(file.size, offset + policy.chunkBytes));
    const startByte = offset;
    const fileId = state.fileId;
    const answer = await withRetries(
      () => putChunk(fileId, startByte, chunk, { signal, timeoutMs: policy.timeoutMs }),
      policy,
      wait,
      signal,
    ).catch((error: unknown) => {
      // The bytes do not make the SHA-1 announced: the next attempt starts afresh.
      if (error instanceof ApiRequestError && error.code === 'UPLOAD_CHECKSUM_MISMATCH')
        store?.delete(fingerprint);
      throw error;
    });
    // Refused for its offset: the server's count (GET /media/{fileId}) says where to go on from.
    const held = isUploadState(answer) ? answer.size : (await uploadState(fileId, signal)).size;
    if (held > file.size) {
      throw new ApiRequestError({
        status: 0,
        code: 'UNEXPECTED_RESPONSE',
        message: 'Server holds more bytes than the file has',
      });
    }
    answersWithoutProgress = held > offset ? 0 : answersWithoutProgress + 1;
    if (answersWithoutProgress >= maxAnswersWithoutProgress) {
      throw new ApiRequestError({
        status: 0,
        code: 'UNEXPECTED_RESPONSE',
        message: `Upload stuck at byte ${held}`,
      });
    }
    offset = held;
    if (isUploadState(answer)) state = answer;
    report('uploading', offset);
  }
  store?.delete(fingerprint);
  return state;
}

/** What a placeholder was created for, besides the file: its language and webhook. */
function targetOf({ languageCode, callbackUrl, crm }: UploadRequest): string {
  return JSON.stringify([languageCode, callbackUrl ?? null, ...(crm ? [crm] : [])]);
}

/** The placeholder's state, or undefined when it is gone (deleted, or cleaned up as abandoned). */
async function heldState(fileId: string, signal: AbortSignal | undefined) {
  try {
    return await uploadState(fileId, signal);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return undefined;
    throw error;
  }
}

type ChunkAnswer = RecordingUploadState | UploadOffsetMismatch | UploadInProgress;

function isUploadState(answer: ChunkAnswer): answer is RecordingUploadState {
  return 'fileId' in answer;
}

function isInProgress(answer: ChunkAnswer): answer is UploadInProgress {
  return 'retryAfterSeconds' in answer;
}

/** Worth sending again: no answer in time, no answer at all, or a failure on the server's side. */
export function isRetryableChunkFailure(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  return (
    error.code === 'TIMEOUT' || error.code === 'NETWORK_ERROR' || error.status >= 500 || error.status === 429
  );
}

/** The server is not there for now (stopped, starting, behind a proxy that cannot reach it). */
function isServerAway(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  return error.code === 'NETWORK_ERROR' || [502, 503, 504].includes(error.status);
}

/**
 * Sends until the chunk gets an answer other than UPLOAD_IN_PROGRESS: ordinary failures up to
 * `policy.retries` times, 500 ms doubling; while the server is away, on the same schedule (capped
 * at 4 s, or after the server's Retry-After) until `serverAwayBudgetMs` of waiting is spent.
 */
async function withRetries(
  send: () => Promise<ChunkAnswer>,
  policy: UploadPolicy,
  wait: NonNullable<UploadOptions['wait']>,
  signal: AbortSignal | undefined,
): Promise<RecordingUploadState | UploadOffsetMismatch> {
  let waitedMs = 0;
  for (let retry = 0; ; retry += 1) {
    let failure: unknown;
    let askedDelayMs: number | undefined;
    try {
      const answer = await send();
      if (!isInProgress(answer)) return answer;
      // The request the server was killed in, or one this client gave up on, still holds the upload.
      failure = new ApiRequestError({ status: 409, code: answer.code, message: answer.message });
      askedDelayMs = answer.retryAfterSeconds * 1000;
    } catch (error) {
      if (signal?.aborted || !isRetryableChunkFailure(error)) throw error;
      failure = error;
    }
    const doublingMs = policy.firstRetryDelayMs * 2 ** retry;
    let delayMs: number;
    let allowed: boolean;
    if (askedDelayMs !== undefined || isServerAway(failure)) {
      delayMs = askedDelayMs ?? Math.min(doublingMs, maxServerAwayDelayMs);
      allowed = waitedMs + delayMs <= policy.serverAwayBudgetMs;
    } else {
      delayMs = doublingMs;
      allowed = retry < policy.retries;
    }
    if (!allowed) throw failure;
    await wait(delayMs, signal);
    waitedMs += delayMs;
  }
}

function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
