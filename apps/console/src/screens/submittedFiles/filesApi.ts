import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type CreateRecordingRequest,
  type DownloadFormat,
  downloadFormats,
  filesPageSchema,
  filesPageSize,
  type RecordingUploadState,
  recordingUploadStateSchema,
  type SubmittedFile,
  type UploadInProgress,
  type UploadOffsetMismatch,
  uploadChunkPolicy,
  uploadInProgressSchema,
  uploadOffsetMismatchSchema,
  webhookAttemptsSchema,
  type WebhookResend,
  webhookResendSchema,
  webhookSigningSecretSchema,
} from '@verbatim/contracts';
import { z } from 'zod';
import { apiBlob, apiRequest } from '../../api/apiClient';
import { saveBlob } from '../billing/billingApi';

/** Every query of the submitted files screen starts with this key; an upload or deletion refreshes them. */
export const filesQueryKey = ['files'] as const;

/** Spec §4: while a file waits or is transcribed, the table asks again this often. */
export const filesPollIntervalMs = 3_000;

/** True while the server is still working on the file (its row changes without the user doing anything). */
export function isInProgress(file: SubmittedFile): boolean {
  return file.isCompleted && (file.transcriptStatus === 'pending' || file.transcriptStatus === 'processing');
}

/** `GET /files/third-party?start=&limit=10`: one page of files, newest first. */
export function filesPageQuery(start: number) {
  return queryOptions({
    queryKey: [...filesQueryKey, 'page', start],
    queryFn: ({ signal }) =>
      apiRequest(
        `/files/third-party?${new URLSearchParams({ start: String(start), limit: String(filesPageSize) })}`,
        { schema: filesPageSchema, signal },
      ),
    placeholderData: keepPreviousData,
    // Live status (spec §4 Transcript status): poll only while a row can still change by itself.
    refetchInterval: (query) => (query.state.data?.list.some(isInProgress) ? filesPollIntervalMs : false),
  });
}

/** `POST /media/recordings`: the placeholder of an upload and how many bytes the server already holds. */
export function createRecording(
  body: CreateRecordingRequest,
  signal?: AbortSignal,
): Promise<RecordingUploadState> {
  return apiRequest('/media/recordings', {
    method: 'POST',
    schema: recordingUploadStateSchema,
    body,
    signal,
  });
}

/** `GET /media/{fileId}`: where an upload stands, the bytes the server holds. */
export function uploadState(fileId: string, signal?: AbortSignal): Promise<RecordingUploadState> {
  return apiRequest(`/media/${encodeURIComponent(fileId)}`, { schema: recordingUploadStateSchema, signal });
}

const chunkAnswerSchema = z.union([
  recordingUploadStateSchema,
  uploadOffsetMismatchSchema,
  uploadInProgressSchema,
]);

/**
 * `PUT /media/{fileId}`: one chunk, starting at `startByte`, in the multipart field `theFile`.
 * A chunk that does not start where the server stands answers 409 with the size it holds; one sent
 * while another request still writes the upload, 409 with when to try again.
 */
export function putChunk(
  fileId: string,
  startByte: number,
  chunk: Blob,
  { signal, timeoutMs = uploadChunkPolicy.timeoutMs }: { signal?: AbortSignal; timeoutMs?: number },
): Promise<RecordingUploadState | UploadOffsetMismatch | UploadInProgress> {
  const body = new FormData();
  body.append('theFile', chunk, 'chunk');
  return apiRequest(`/media/${encodeURIComponent(fileId)}`, {
    method: 'PUT',
    schema: chunkAnswerSchema,
    body,
    signal,
    timeoutMs,
    headers: { 'x-start-byte': String(startByte) },
    answerStatuses: [409],
  });
}

/** `GET /transcripts/download?fileIds=…&format=…`: saves one file's transcript, named after the recording. */
export async function downloadTranscript(file: SubmittedFile, format: DownloadFormat): Promise<void> {
  const query = new URLSearchParams({ fileIds: file.id, format });
  const transcript = await apiBlob(`/transcripts/download?${query}`, { timeoutMs: 60_000 });
  saveBlob(transcript, transcriptFileName(file.fileName, format));
}

/** `recording.mp3` → `recording.srt`: the recording's name with the format's extension. */
export function transcriptFileName(recordingName: string, format: DownloadFormat): string {
  const base = recordingName
    .replace(/\.[^.]*$/, '')
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .trim();
  return `${base === '' ? 'transcript' : base}.${downloadFormats[format]}`;
}

/** `DELETE /files/third-party/{fileId}`: the recording and its transcript. */
export async function deleteFile(fileId: string): Promise<void> {
  await apiRequest(`/files/third-party/${encodeURIComponent(fileId)}`, {
    method: 'DELETE',
    schema: z.unknown(),
  });
}

/** `GET /files/third-party/{fileId}/webhook-attempts`: every delivery attempt of the file's webhook, newest first. */
export function webhookAttemptsQuery(fileId: string) {
  return queryOptions({
    queryKey: [...filesQueryKey, 'webhook-attempts', fileId],
    queryFn: ({ signal }) =>
      apiRequest(`/files/third-party/${encodeURIComponent(fileId)}/webhook-attempts`, {
        schema: webhookAttemptsSchema,
        signal,
      }),
  });
}

/** `POST /files/third-party/{fileId}/webhook-resend`: the webhook is delivered again. */
export function resendWebhook(fileId: string): Promise<WebhookResend> {
  return apiRequest(`/files/third-party/${encodeURIComponent(fileId)}/webhook-resend`, {
    method: 'POST',
    schema: webhookResendSchema,
  });
}

/** `GET /webhooks/signing-secret`: the account's secret for verifying webhook signatures. */
export const signingSecretQuery = queryOptions({
  queryKey: ['webhooks', 'signing-secret'],
  queryFn: ({ signal }) =>
    apiRequest('/webhooks/signing-secret', { schema: webhookSigningSecretSchema, signal }),
  staleTime: Infinity,
});
