import { checkFfmpeg } from '../decode/check-ffmpeg.js';
import { decodeAudio, speechSampleRate } from '../decode/decode-audio.js';
import { probeMedia, type MediaProbe } from '../decode/probe-media.js';
import { probeRawPcm, type RawPcmFormat } from '../decode/raw-pcm.js';
import { frenchMedicalCode, frenchMedicalPrompt } from '../languages/fr-medical.js';
import {
  languageChoices,
  recogniserLanguage,
  servesLanguage,
  type LanguageChoice,
} from '../languages/language-choices.js';
import {
  chooseModel,
  listInstalledModels,
  type InstalledModel,
  type ModelChoice,
  type UsableModel,
} from '../models/model-registry.js';
import type { WhisperModelType } from '../models/model-catalogue.js';
import { RecogniserPool, type Recogniser } from '../recogniser/recogniser-pool.js';
import { SpeechError } from '../speech-error.js';
import type { Transcript, TranscriptSegment } from '../transcript.js';
import {
  StreamingRecogniser,
  type StreamingSegment,
  type StreamingTuning,
} from '../streaming/streaming-recogniser.js';
import { SileroVad } from '../vad/silero-vad.js';
import { MAX_WINDOW_SECONDS, SpeechWindower } from '../vad/speech-windows.js';
import { UnheardSpeech } from './unheard-speech.js';
import { recogniseWindow, type DecodingChoices } from './window-recognition.js';

export interface SpeechEngineOptions extends ModelChoice {
  modelsDir: string;
  workers: number;
  threadsPerWorker: number;
  /** Transcriptions that may wait for a recogniser before new ones get SPEECH_BUSY. */
  queueLimit: number;
  maxDurationSeconds: number;
  decoding?: Partial<DecodingChoices>;
}

export interface TranscribeOptions {
  /** A language code, `fr-medical`, or undefined/`auto` to detect. */
  language?: string;
  /** Words or context that help the recogniser (names, jargon): whisper's initial prompt. */
  prompt?: string;
  /** The file is headerless PCM in this format. */
  rawPcm?: RawPcmFormat;
  signal?: AbortSignal;
  /** 0–1, after each window. */
  onProgress?: (fraction: number) => void;
}

export interface StreamOptions {
  /** A language code, `fr-medical`, or undefined/`auto` to detect it on the first utterance. */
  language?: string;
  /** false: pauses do not start a new paragraph (segment). Default true. */
  endpoints?: boolean;
  onSegment: (segment: StreamingSegment) => void;
  tuning?: Partial<StreamingTuning>;
}

export interface EngineStatus {
  ready: boolean;
  /** Why the engine cannot transcribe, with what to do about it. */
  problem?: string;
  ffmpeg: { available: boolean; version?: string };
  models: InstalledModel[];
  workers: number;
  threadsPerWorker: number;
  busy: number;
  waiting: number;
}

/** A place in the engine's line of transcriptions; released when the work ends. */
export interface Admission {
  release(): void;
}

/**
 * Beam search of 5 in every language, as whisper.cpp's and faster-whisper's defaults, for files and
 * live finals alike. English was greedy, measured as accurate as beam 5 on the first 17 read English
 * clips; on the 51 English clips of the dev set now (read, spontaneous, accented) greedy lost (see
 * bench/speech.ts); over 12 dictated sentences live English finals made twice batch's errors
 * greedy, as many with the beam (bench:live, bench/RESULTS.md).
 */
const defaultDecoding: DecodingChoices = { beamSize: 5, beamSizeOtherLanguages: 5, fitEncoderContext: true };

/**
 * The speech engine: decode (ffmpeg) → voice activity detection (Silero) → windows of at most 30 s
 * cut at pauses → whisper.cpp in a pool of worker threads → transcript. Admission is explicit: at
 * most `workers + queueLimit` transcriptions at once, the rest refused with SPEECH_BUSY and a
 * Retry-After estimate, never an unbounded queue.
 */
export class SpeechEngine {
  #models: InstalledModel[] = [];
  #ffmpeg: EngineStatus['ffmpeg'] = { available: false };
  #ffmpegProblem: string | undefined;
  #active = 0;
  /** Moving average of how long a transcription holds its place, for Retry-After. */
  #averageSeconds = 5;

  private constructor(
    private readonly options: SpeechEngineOptions,
    private readonly vad: SileroVad,
    private readonly pool: RecogniserPool,
    private readonly recogniser: Recogniser,
    private readonly decoding: DecodingChoices,
  ) {}

  static async start(options: SpeechEngineOptions): Promise<SpeechEngine> {
    const vad = await SileroVad.load();
    const pool = new RecogniserPool({ workers: options.workers, threadsPerWorker: options.threadsPerWorker });
    const engine = new SpeechEngine(options, vad, pool, pool, { ...defaultDecoding, ...options.decoding });
    const ffmpeg = await checkFfmpeg();
    engine.#ffmpeg = ffmpeg.available ? { available: true, version: ffmpeg.version } : { available: false };
    engine.#ffmpegProblem = ffmpeg.available ? undefined : ffmpeg.problem;
    await engine.refreshModels();
    return engine;
  }

  /** Re-reads the models folder (after a download). */
  async refreshModels(): Promise<void> {
    this.#models = await listInstalledModels(this.options.modelsDir);
  }

  /**
   * Starts the recogniser threads and loads the default model in each, so the first request does
   * not wait for it. Only a process that serves transcriptions calls it: an operator command never
   * pays for threads and models it does not use.
   */
  async warmUp(): Promise<void> {
    const preferred =
      chooseModel(undefined, this.options, this.#models) ?? chooseModel('en', this.options, this.#models);
    if (preferred) await this.pool.preload(preferred.path);
  }

  status(): EngineStatus {
    const load = this.pool.load;
    const usable = this.#models.some((model) => model.info !== undefined);
    const problem = this.#ffmpegProblem
      ? this.#ffmpegProblem
      : usable
        ? undefined
        : `No speech model in ${this.options.modelsDir}: run \`verbatim models download ${this.options.defaultModel}\`, or copy a whisper.cpp ggml model file there.`;
    return {
      ready: problem === undefined,
      ...(problem ? { problem } : {}),
      ffmpeg: this.#ffmpeg,
      models: this.#models,
      workers: this.options.workers,
      threadsPerWorker: this.options.threadsPerWorker,
      busy: load.busy,
      waiting: load.waiting,
    };
  }

  /** The languages the installed models serve, named in `locale`. */
  languages(locale = 'en'): LanguageChoice[] {
    return languageChoices(this.#usableModels(), locale);
  }

  #usableModels(): { multilingual: boolean }[] {
    return this.#models.flatMap((model) => (model.info ? [{ multilingual: model.info.multilingual }] : []));
  }

  /** Throws UNSUPPORTED_LANGUAGE unless the installed models can transcribe `language`. */
  assertLanguage(language: string | undefined): void {
    // Without a model every language is unsupported: say what is really missing.
    this.#assertReady();
    if (language === undefined || language === 'auto') {
      this.#modelFor(undefined);
      return;
    }
    if (!servesLanguage(this.#usableModels(), language)) {
      throw new SpeechError(
        'UNSUPPORTED_LANGUAGE',
        `The language "${language}" is not supported by the installed models.`,
        {
          language,
        },
      );
    }
  }

  /** Takes a place in the line, or refuses with SPEECH_BUSY (details.retryAfterSeconds). */
  admit(): Admission {
    this.#assertReady();
    const capacity = this.options.workers + this.options.queueLimit;
    if (this.#active >= capacity) {
      const retryAfterSeconds = Math.max(
        1,
        Math.ceil((this.#averageSeconds * (this.#active - this.options.workers + 1)) / this.options.workers),
      );
      throw new SpeechError('SPEECH_BUSY', 'Every recogniser is busy; try again shortly.', {
        retryAfterSeconds,
      });
    }
    this.#active += 1;
    const admitted = performance.now();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#active -= 1;
        const seconds = (performance.now() - admitted) / 1000;
        this.#averageSeconds = this.#averageSeconds * 0.8 + seconds * 0.2;
      },
    };
  }

  /**
   * Duration and codecs of a recording (of headerless PCM in `rawPcm`'s format, if given);
   * INVALID_FILE / UNSUPPORTED_MEDIA / TOO_LONG when unusable.
   */
  async probe(filePath: string, signal?: AbortSignal, rawPcm?: RawPcmFormat): Promise<MediaProbe> {
    this.#assertReady();
    const probe = rawPcm
      ? await probeRawPcm(filePath, rawPcm)
      : await probeMedia(filePath, signal ? { signal } : {});
    if (probe.durationSeconds > this.options.maxDurationSeconds) {
      const hours = Math.round((this.options.maxDurationSeconds / 3600) * 10) / 10;
      throw new SpeechError('TOO_LONG', `Recording longer than ${hours} hours.`, {
        durationSeconds: probe.durationSeconds,
        maxDurationSeconds: this.options.maxDurationSeconds,
      });
    }
    return probe;
  }

  /**
   * Transcribes a recording file, window by window, with memory bounded by one window whatever
   * the length. Cancelling the signal stops decoding and frees the recogniser.
   */
  async transcribeFile(
    filePath: string,
    options: TranscribeOptions = {},
    probe?: MediaProbe,
  ): Promise<Transcript> {
    this.#assertReady();
    this.assertLanguage(options.language);
    const known = probe ?? (await this.probe(filePath, options.signal, options.rawPcm));
    const vadStream = this.vad.createStream();
    const windower = new SpeechWindower(vadStream);
    const fixedPrompt = [
      options.language === frenchMedicalCode ? frenchMedicalPrompt() : '',
      options.prompt ?? '',
    ]
      .filter(Boolean)
      .join(' ');
    let model = this.#modelFor(recogniserLanguage(options.language));
    // An English-only model cannot detect a language: with nothing else installed, English it is.
    let language = recogniserLanguage(options.language) ?? (model.info.multilingual ? undefined : 'en');
    let previousText = '';
    let samplesSeen = 0;
    const segments: TranscriptSegment[] = [];
    const unheard = new UnheardSpeech(MAX_WINDOW_SECONDS * speechSampleRate);

    const recogniseAll = async (windows: { start: number; samples: Float32Array }[]) => {
      for (const window of windows) {
        unheard.heard();
        const result = await recogniseWindow(
          this.recogniser,
          {
            modelPath: model.path,
            start: window.start,
            samples: window.samples,
            language,
            prompt: fixedPrompt,
            previousText,
            ...(options.signal ? { signal: options.signal } : {}),
          },
          this.decoding,
        );
        if (language === undefined) {
          // Detected on the first window with speech, then kept: a recording has one language,
          // and the per-language model choice (e.g. English-only for English) applies from here.
          language = result.language;
          model = this.#modelFor(language);
        }
        previousText = `${previousText} ${result.carryText}`.slice(-1000);
        for (const segment of result.segments) segments.push({ id: segments.length, ...segment });
        options.onProgress?.(
          Math.min(
            1,
            (window.start + window.samples.length / speechSampleRate) /
              Math.max(known.durationSeconds, 0.001),
          ),
        );
      }
    };

    for await (const chunk of decodeAudio(filePath, {
      expectedDurationSeconds: known.durationSeconds,
      ...(options.rawPcm ? { rawPcm: options.rawPcm } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    })) {
      samplesSeen += chunk.length;
      unheard.keep(chunk);
      await recogniseAll(await windower.push(chunk));
    }
    await recogniseAll(await windower.finish());
    const whole = unheard.take();
    // Only where the detector was unsure: whisper can invent a word or two in noise ("nd"), and
    // then no-speech probability and guards do not always tell.
    if (whole && windower.heardPossibleSpeech) await recogniseAll([{ start: 0, samples: whole }]);
    options.onProgress?.(1);
    return {
      // No speech at all: nothing to detect from; the product's default language.
      language: language ?? 'en',
      duration: Math.round((samplesSeen / speechSampleRate) * 1000) / 1000,
      segments,
    };
  }

  /**
   * A live recogniser: audio in as it arrives, partial and final segments out (see
   * StreamingRecogniser). It shares this engine's recogniser threads, VAD and models; the caller
   * decides how many may run at once.
   */
  openStream(options: StreamOptions): StreamingRecogniser {
    this.#assertReady();
    this.assertLanguage(options.language);
    const requested = recogniserLanguage(options.language);
    const model = this.#modelFor(requested);
    return new StreamingRecogniser({
      vad: this.vad.createStream(),
      recogniser: this.recogniser,
      modelFor: (language) => this.#modelFor(language),
      // An English-only model cannot detect a language: with nothing else installed, English it is.
      language: requested ?? (model.info.multilingual ? undefined : 'en'),
      prompt: options.language === frenchMedicalCode ? frenchMedicalPrompt() : '',
      decoding: this.decoding,
      endpoints: options.endpoints ?? true,
      onSegment: options.onSegment,
      tuning: { ...streamingTuningFor(model.info.modelType), ...options.tuning },
    });
  }

  async close(): Promise<void> {
    await this.pool.close();
    await this.vad.close();
  }

  #assertReady(): void {
    const status = this.status();
    if (!status.ready)
      throw new SpeechError('SPEECH_UNAVAILABLE', status.problem ?? 'The speech engine is not ready.');
  }

  #modelFor(language: string | undefined): UsableModel {
    const model =
      chooseModel(language, this.options, this.#models) ??
      (language === undefined ? chooseModel('en', this.options, this.#models) : undefined);
    if (!model) {
      throw new SpeechError(
        language ? 'UNSUPPORTED_LANGUAGE' : 'SPEECH_UNAVAILABLE',
        language ? `No installed model transcribes "${language}".` : 'No usable speech model is installed.',
      );
    }
    return model;
  }
}

/**
 * Tiny models decode a phrase that starts at a pause mid-sentence badly (bench:live, tiny.en: the
 * phrase repeated or misheard, finals' WER 6.5% against 2.4% decoding each utterance whole), so
 * their utterances are decoded whole, and a pause's decode is final only after a longer silence
 * (tiny decodes a sentence in a moment: the final is no later for it); larger models lose nothing.
 */
function streamingTuningFor(modelType: WhisperModelType): Partial<StreamingTuning> {
  return modelType === 'tiny' ? { commitPausesAfterSeconds: 0, pauseFinalSilenceMs: 300 } : {};
}
