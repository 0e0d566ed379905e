import { queryOptions } from '@tanstack/react-query';
import {
  type FileSpeakers,
  fileSpeakersSchema,
  fileTranscriptSchema,
  recordingAudioUrlSchema,
  type RenameSpeakersRequest,
  submittedFileSchema,
} from '@verbatim/contracts';
import { apiRequest } from '../../api/apiClient';
import { filesPollIntervalMs, filesQueryKey, isInProgress } from '../submittedFiles/filesApi';

const filePath = (fileId: string) => `/files/third-party/${encodeURIComponent(fileId)}`;

/** `GET /files/third-party/{fileId}`: the file, asked again while it is transcribed. */
export function submittedFileQuery(fileId: string) {
  return queryOptions({
    queryKey: [...filesQueryKey, 'file', fileId],
    queryFn: ({ signal }) => apiRequest(filePath(fileId), { schema: submittedFileSchema, signal }),
    refetchInterval: (query) =>
      query.state.data && isInProgress(query.state.data) ? filesPollIntervalMs : false,
  });
}

/** `GET /files/third-party/{fileId}/transcript`: the done transcript with its words and speakers. */
export function fileTranscriptQuery(fileId: string) {
  return queryOptions({
    queryKey: [...filesQueryKey, 'transcript', fileId],
    queryFn: ({ signal }) =>
      apiRequest(`${filePath(fileId)}/transcript`, {
        schema: fileTranscriptSchema,
        signal,
        timeoutMs: 30_000,
      }),
    staleTime: Infinity,
  });
}

/**
 * `POST /files/third-party/{fileId}/audio-url`: a signed address the `<audio>` element can fetch
 * (and seek in with Range) without the bearer token; asked again a minute before it expires.
 */
export function recordingAudioUrlQuery(fileId: string) {
  return queryOptions({
    queryKey: [...filesQueryKey, 'audio-url', fileId],
    queryFn: ({ signal }) =>
      apiRequest(`${filePath(fileId)}/audio-url`, {
        method: 'POST',
        schema: recordingAudioUrlSchema,
        signal,
      }),
    staleTime: (query) =>
      query.state.data ? Math.max(0, Date.parse(query.state.data.expiresAt) - Date.now() - 60_000) : 0,
    refetchOnWindowFocus: false,
  });
}

/** `PUT /files/third-party/{fileId}/speakers`: new names, used from then on by every download and CRM send. */
export function renameSpeakers(fileId: string, body: RenameSpeakersRequest): Promise<FileSpeakers> {
  return apiRequest(`${filePath(fileId)}/speakers`, { method: 'PUT', schema: fileSpeakersSchema, body });
}
