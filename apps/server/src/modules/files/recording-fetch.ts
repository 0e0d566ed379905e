import { AppError } from '../../errors/app-error.js';
import {
  AddressRefusedError,
  outboundRequest,
  type AddressPolicy,
} from '../../platform/net/outbound-http.js';
import { receiveAudio, type ReceivedAudio } from '../transcripts/audio-upload.js';

export interface RecordingFetchOptions {
  directory: string;
  maxBytes: number;
  allowPrivateAddresses: AddressPolicy;
  /** Fetch nothing: every recording URL fails at once (OUTBOUND_HTTP_DISABLED). */
  outboundDisabled?: boolean;
  timeoutMs: number;
}

const maxRedirects = 3;

/**
 * Fetches a recording from an https address a developer gave (`POST /transcripts/jobs?url=`) into
 * a temporary file: https only, never to an internal address (checked again at every redirect),
 * no more than the upload limit.
 */
export async function fetchRecording(
  address: string,
  options: RecordingFetchOptions,
): Promise<{ audio: ReceivedAudio; mediaType: string }> {
  let url = new URL(address);
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'https:') throw new AppError('URL_NOT_ALLOWED', 'The recording URL must be https.');
    let response;
    try {
      response = await outboundRequest({
        method: 'GET',
        url,
        headers: { 'user-agent': 'Verbatim-Fetch/1', accept: 'audio/*, video/*, application/octet-stream' },
        timeoutMs: options.timeoutMs,
        allowPrivateAddresses: options.allowPrivateAddresses,
        disabled: options.outboundDisabled ?? false,
      });
    } catch (error) {
      if (error instanceof AddressRefusedError) {
        throw new AppError(
          'URL_NOT_ALLOWED',
          'The recording URL points to a private or internal address.',
          undefined,
          { cause: error },
        );
      }
      throw new AppError(
        'URL_FETCH_FAILED',
        `The recording could not be fetched: ${(error as Error).message}.`,
        undefined,
        {
          cause: error,
        },
      );
    }
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && location) {
      // Whatever body came with the redirect or the error is not read: the connection is closed.
      response.body.destroy();
      if (redirects >= maxRedirects)
        throw new AppError('URL_FETCH_FAILED', 'The recording URL redirects too often.');
      url = new URL(location, url);
      continue;
    }
    if (response.statusCode !== 200) {
      response.body.destroy();
      throw new AppError('URL_FETCH_FAILED', `Fetching the recording answered HTTP ${response.statusCode}.`);
    }
    const length = Number(response.headers['content-length']);
    // Past the limit (declared or counted) the download stops: the connection is closed rather
    // than read to its end, as an upload's request body is.
    const audio = await receiveAudio(response.body, {
      directory: options.directory,
      maxBytes: options.maxBytes,
      ...(Number.isFinite(length) && length > 0 ? { declaredBytes: length } : {}),
    }).catch((error: unknown) => {
      response.body.destroy();
      throw error;
    });
    const type = (response.headers['content-type'] ?? 'application/octet-stream').split(';')[0]?.trim();
    return { audio, mediaType: type || 'application/octet-stream' };
  }
}
