import type { NativeSegment, NativeTranscribeOptions } from '../recogniser/native-addon.js';
import { recognitionPriority, type Recogniser } from '../recogniser/recogniser-pool.js';
import type { TranscriptSegment, TranscriptWord } from '../transcript.js';
import {
  isNonSpeechSegment,
  looksLikeLoop,
  repeatsASentence,
  withoutSoundAnnotations,
} from './hallucination-guards.js';

const sampleRate = 16_000;
/** Whisper's encoder sees 50 frames per second of audio, 1500 for its full 30 s. */
const encoderFramesPerSecond = 50;
const fullEncoderContext = 1500;
/**
 * Frames beyond the audio: without them the last word of a window is sometimes lost. 64 was too
 * few for tiny.en: on a 3 s window it repeated the sentence until the token limit (then dropped as
 * a loop: the whole utterance lost, 232 errors on the 291 English dev-set words and twice the time);
 * with 128 it makes 5 errors, and base is unchanged (3 errors) — see bench/speech.ts.
 */
export const encoderContextMargin = 128;
/**
 * A live partial's margin once it holds `shortMarginFromSeconds` of audio: half the encoder's work
 * on a 2–3 s partial was the margin. A partial's last word never settles and its tokens are
 * capped, so the end of the audio matters less there; measured with bench:live (base), 23% less
 * time per partial and the same finals' WER. On the first second of an utterance, with the short
 * margin whisper more often heard nothing (first partial at p95 1.4 s instead of 1.0 s).
 */
const partialEncoderContextMargin = 64;
const shortMarginFromSeconds = 2;
/** Characters of earlier text carried into the next window's prompt. */
const promptCarryCharacters = 220;

export interface DecodingChoices {
  /** For English: 1 = greedy (with whisper.cpp's temperature fallback); more = beam search. */
  beamSize: number;
  /**
   * For every other language (and before the language is known): beam 5 recognises French,
   * German and Spanish markedly better than greedy, for about 30% more CPU.
   */
  beamSizeOtherLanguages: number;
  /** Cut the encoder's context to the window's length (much faster on short windows). */
  fitEncoderContext: boolean;
}

export interface WindowRequest {
  modelPath: string;
  /** Seconds from the start of the recording. */
  start: number;
  samples: Float32Array;
  /** The recogniser's language, or undefined to detect it. */
  language: string | undefined;
  /** Fixed prompt (the caller's, or a vocabulary) placed before the carried text. */
  prompt: string;
  /** Text of the previous windows, for context. */
  previousText: string;
  /**
   * The words, already final, of the audio the window begins with, up to `end` (seconds into the
   * window): a live phrase decoded with the phrase before it. The decoder continues from them
   * instead of transcribing that audio again.
   */
  prefix?: { text: string; end: number };
  signal?: AbortSignal;
  /**
   * A live partial (provisional text, decoded again a moment later): greedy, without whisper.cpp's
   * temperature fallback and without the second attempt on a loop, its tokens capped to what
   * speech of this length can hold: one cheap pass however the audio ends. A live final is decoded
   * as batch windows are; live work goes before recordings in the recogniser's line.
   */
  live?: 'partial' | 'final';
}

export interface WindowResult {
  language: string;
  segments: Omit<TranscriptSegment, 'id'>[];
  /** Text to carry into the next window's prompt ('' after a loop, so it does not spread). */
  carryText: string;
  recogniseMilliseconds: number;
}

/**
 * ggml's fast matrix kernels (llamafile's tinyBLAS) take the attention's products only when the
 * context is a multiple of 16 frames; at any other length they fell back to plain dot products,
 * which took a quarter of a greedy decode's time (measured with perf on the dev set). Rounding up
 * adds at most 0.3 s of margin. bench:speech (base): RTF 0.092 -> 0.085 on English, 0.107 -> 0.100
 * over all languages; WER the same but for French, one word better (27.52 -> 26.61 %), and tiny.en,
 * one word worse (1.72 -> 2.06 %, its reference).
 */
const encoderContextStep = 16;
/**
 * The model's full 30 s (1500 frames) is not a multiple of 16 either: a window that long took the
 * slow products in its encoder and in every decoder step's cross-attention. Its largest multiple,
 * 1488 frames (29.76 s; windows stop at 29.5 s, see MAX_WINDOW_SECONDS), with beam 5 on one
 * thread: a 30 s meeting excerpt's encoder 4.0 -> 3.2 s, its whole decode 12.5 -> 7.9 s; 27.5 s of a
 * reading with the previous text as prompt, as windows are decoded, 13.9 -> 11.3 s (same text).
 */
const maxEncoderContext = Math.floor(fullEncoderContext / encoderContextStep) * encoderContextStep;

/**
 * The encoder context for a window of `samples`, with `margin` frames after the audio, and at
 * least `minimum` frames.
 */
export function encoderContextFor(samples: number, margin: number, minimum = 0): number {
  const frames = Math.max(minimum, Math.ceil((samples / sampleRate) * encoderFramesPerSecond) + margin);
  return Math.min(maxEncoderContext, Math.ceil(frames / encoderContextStep) * encoderContextStep);
}

/**
 * The context a window of a recording is decoded again with when its decode said a sentence twice
 * (10 s at least). Whisper learnt on 30 s windows; cut to a few seconds, it sometimes decodes a
 * short clip's sentence once more over the margin after it. bench:speech's dev set (base, beam 5):
 * with at least 10 s for every window, such repeats were gone ("Madame la Baronne Péthère Madame
 * la Baronne Péthère" → "Madame la baronne fait fairece") and 180 errors became 160, but other
 * short clips came out differently, some worse: a 2.4 s clip starting mid-word lost its last words
 * ("de la ligue nationale" → "pour les autres religions nationales"), and at 15 s a whole sentence
 * of a 9 s window was dropped. So only a window whose decode repeated itself gets it (a live
 * final too, not a partial, which the next one replaces).
 */
export const repeatRetryEncoderContext = 512;

/**
 * A cap on the tokens of one segment, so that a decode that loops stops soon: a partial at about
 * twice what speech of this length can hold; a final or a recording's window at three times
 * (fast French is about 6 tokens a second). Without it, tiny.en looping on a 1.4 s live final went
 * on to whisper.cpp's 220 tokens at every temperature of its fallback: 3.5 s to decode it.
 */
export function maxTokensFor(seconds: number, partial: boolean): number {
  return partial ? Math.ceil(seconds * 8) + 16 : Math.ceil(seconds * 12) + 24;
}

/**
 * A live final that starts while other work holds the recogniser's threads (other streams' finals
 * and partials, windows of recordings) is decoded in one greedy pass instead of its beam: on two
 * cores, four streams' beam finals queued behind each other (bench:live, four sessions: finals of
 * French, German and Spanish took 1-3 s each on one thread, and the sentences' p95 was 2.6-2.9 s).
 * Greedy: p50 1.14-1.39 → 0.71 s, p95 → 2.06 s; with lent threads kept free (recogniser-pool.ts)
 * p50 0.63-0.68 s, p95 1.48-1.55 s. The price is accuracy under load: the four sessions' finals'
 * WER 14.5 → 17.8 % (batch 15.6 %). A final on a free recogniser keeps its beam, which on one
 * stream's dictation was the more accurate (Spanish 7.5 % against 14.3 % greedy, German 23.8-30.0 %
 * against 26.3 %), so one session's finals are unchanged.
 */
const liveFinalWhenShared = { beamSize: 1 } as const;

function priorityOf(live: WindowRequest['live']): number {
  if (live === 'final') return recognitionPriority.liveFinal;
  return live === 'partial' ? recognitionPriority.livePartial : recognitionPriority.batch;
}

function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

function toSegment(
  native: NativeSegment,
  windowStart: number,
  windowEnd: number,
): Omit<TranscriptSegment, 'id'> {
  const clamp = (ms: number) => roundMs(Math.min(windowEnd, Math.max(windowStart, windowStart + ms / 1000)));
  const start = clamp(native.start);
  const end = Math.max(start, clamp(native.end));
  let previousEnd = start;
  const words: TranscriptWord[] = [];
  for (const word of native.words) {
    const text = withoutSoundAnnotations(word.text);
    if (!text) continue;
    // Token timestamps are estimates: keep them inside the segment and in order.
    const wordStart = Math.min(end, Math.max(previousEnd, clamp(word.start)));
    const wordEnd = Math.min(end, Math.max(wordStart, clamp(word.end)));
    previousEnd = wordStart;
    words.push({
      start: wordStart,
      end: wordEnd,
      text,
      confidence: Math.round(word.probability * 1000) / 1000,
    });
  }
  return { start, end, text: withoutSoundAnnotations(native.text), words };
}

/**
 * Recognises one window (at most 30 s, cut at pauses) and maps its segments onto the recording's
 * time line. A result that loops is decoded again without the carried prompt and with sampling
 * (temperature 0.4 and up), as Whisper's reference does; if it still loops, its segments are
 * dropped rather than returned as text nobody said.
 */
export async function recogniseWindow(
  recogniser: Recogniser,
  request: WindowRequest,
  choices: DecodingChoices,
): Promise<WindowResult> {
  const windowEnd = request.start + request.samples.length / sampleRate;
  const carried = request.previousText.slice(-promptCarryCharacters);
  const prompt = [request.prompt, carried].filter(Boolean).join(' ').trim();
  const base: Omit<NativeTranscribeOptions, 'threads'> = {
    language: request.language ?? 'auto',
    beamSize:
      request.live === 'partial'
        ? 1
        : request.language === 'en'
          ? choices.beamSize
          : choices.beamSizeOtherLanguages,
    audioContext: choices.fitEncoderContext
      ? encoderContextFor(
          request.samples.length,
          request.live === 'partial' && request.samples.length >= shortMarginFromSeconds * sampleRate
            ? partialEncoderContextMargin
            : encoderContextMargin,
        )
      : 0,
    suppressNonSpeech: true,
    // Whisper's words begin with a space, the prefix's first too.
    ...(request.prefix ? { prefix: ` ${request.prefix.text.trim()}`, prefixEnd: request.prefix.end } : {}),
    temperature: 0,
    temperatureIncrement: request.live === 'partial' ? 0 : 0.2,
    maxTokensPerSegment: maxTokensFor(request.samples.length / sampleRate, request.live === 'partial'),
  };
  let milliseconds = 0;
  const attempt = async (options: Omit<NativeTranscribeOptions, 'threads'>) => {
    // The pool transfers the samples to its thread, so each attempt sends its own copy.
    const outcome = await recogniser.recognise({
      modelPath: request.modelPath,
      samples: request.samples.slice(),
      options,
      priority: priorityOf(request.live),
      ...(request.live === 'final' ? { whenShared: liveFinalWhenShared } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    milliseconds += outcome.milliseconds;
    return outcome.result;
  };

  const first = prompt ? { ...base, prompt } : base;
  let result = await attempt(first);
  let text = result.segments.map((segment) => segment.text).join(' ');
  let looped = looksLikeLoop(text);
  if (looped && request.live !== 'partial') {
    result = await attempt({ ...base, language: result.language, temperature: 0.4, beamSize: 1, bestOf: 3 });
    text = result.segments.map((segment) => segment.text).join(' ');
    looped = looksLikeLoop(text);
  }
  const longerContext = encoderContextFor(
    request.samples.length,
    encoderContextMargin,
    repeatRetryEncoderContext,
  );
  if (
    !looped &&
    request.live !== 'partial' &&
    choices.fitEncoderContext &&
    (base.audioContext ?? 0) < longerContext &&
    repeatsASentence(result.segments)
  ) {
    // Kept even if it repeats again: then whisper hears the sentence twice whatever the context.
    const again = await attempt({ ...first, audioContext: longerContext });
    if (!looksLikeLoop(again.segments.map((segment) => segment.text).join(' '))) result = again;
  }
  const segments = looped
    ? []
    : result.segments
        .filter((segment) => !isNonSpeechSegment(segment))
        .map((segment) => toSegment(segment, request.start, windowEnd))
        .filter((segment) => segment.text.length > 0);
  return {
    language: result.language,
    segments,
    carryText: looped ? '' : segments.map((segment) => segment.text).join(' '),
    recogniseMilliseconds: milliseconds,
  };
}
