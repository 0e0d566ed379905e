import type { DiarizationRequest, TranscriptResponse } from '@verbatim/contracts';
import { transcriptText, type RawPcmFormat, type SpeechEngine, type Transcript } from '@verbatim/speech';
import { newId } from '../../lib/ids.js';
import type { UsageMeter } from '../credits/usage-meter.js';
import { billedSeconds } from '../credits/pricing.js';
import type { SpeakerLabelling } from './speaker-labelling.js';
import { toAppErrorFromSpeech } from './speech-app-error.js';

export interface TranscriptionCaller {
  accountId: string;
  /** The API key used; null for a console session. */
  apiKeyId: string | null;
}

export interface TranscriptionRequest {
  filePath: string;
  language?: string;
  prompt?: string;
  wordTimestamps: boolean;
  /** The file is headerless PCM in this format (as the caller said). */
  rawPcm?: RawPcmFormat;
  /** Tell who speaks when (at no extra charge); undefined: not asked. */
  diarization?: DiarizationRequest | undefined;
  signal?: AbortSignal;
}

export interface CompletedTranscription {
  id: string;
  transcript: Transcript;
  response: TranscriptResponse;
}

/**
 * Pre-recorded transcription through the HTTP API: takes a place in the engine's line, refuses
 * what the account cannot pay for before any recognition (from the probed duration), transcribes,
 * then charges the seconds of audio once, under the transcript's id, before the answer leaves. A
 * transcription that fails or is cancelled is never charged.
 */
export class TranscriptionService {
  constructor(
    private readonly engine: SpeechEngine,
    private readonly meter: UsageMeter,
    private readonly labelling: SpeakerLabelling,
  ) {}

  get speech(): SpeechEngine {
    return this.engine;
  }

  async transcribe(
    caller: TranscriptionCaller,
    request: TranscriptionRequest,
  ): Promise<CompletedTranscription> {
    try {
      this.engine.assertLanguage(request.language);
      // Missing diarization models answer before the recording takes a place in the line.
      if (request.diarization) await this.labelling.ready();
      const admission = this.engine.admit();
      try {
        const probe = await this.engine.probe(request.filePath, request.signal, request.rawPcm);
        if (probe.durationSeconds > 0) {
          await this.meter.assertAffordable({
            ...caller,
            product: 'http_api',
            seconds: probe.durationSeconds,
          });
        }
        const recording = {
          filePath: request.filePath,
          probe,
          ...(request.rawPcm ? { rawPcm: request.rawPcm } : {}),
        };
        const transcript = await this.labelling.transcribe(
          recording,
          request.diarization,
          request.signal,
          () =>
            this.engine.transcribeFile(
              request.filePath,
              {
                ...(request.language ? { language: request.language } : {}),
                ...(request.prompt ? { prompt: request.prompt } : {}),
                ...(request.rawPcm ? { rawPcm: request.rawPcm } : {}),
                ...(request.signal ? { signal: request.signal } : {}),
              },
              probe,
            ),
        );
        const id = newId('trn');
        const billed = transcript.duration > 0 ? billedSeconds(transcript.duration) : 0;
        if (billed > 0) {
          await this.meter.charge({
            ...caller,
            product: 'http_api',
            seconds: transcript.duration,
            reference: `transcript:${id}`,
          });
        }
        const segments = request.wordTimestamps
          ? transcript.segments
          : transcript.segments.map((segment) => ({ ...segment, words: [] }));
        // Diarization is part of the transcription: the same seconds are charged, nothing more.
        const shown: Transcript = { ...transcript, segments };
        return {
          id,
          transcript: shown,
          response: { id, ...shown, text: transcriptText(shown), billedSeconds: billed },
        };
      } finally {
        admission.release();
      }
    } catch (error) {
      throw toAppErrorFromSpeech(error);
    }
  }
}
