import { recogniseWindow, type DecodingChoices } from '../engine/window-recognition.js';
import { isPreempted, type Recogniser } from '../recogniser/recogniser-pool.js';
import { isSpeechError } from '../speech-error.js';
import type { TranscriptSegment } from '../transcript.js';
import { RetainedAudio } from '../vad/retained-audio.js';
import { VAD_FRAME_SAMPLES, type VadStream } from '../vad/silero-vad.js';
import { ENDPOINT_SILENCE_MS, SpeechDetector, type SpeechRegion } from '../vad/speech-detector.js';
import {
  continueSettled,
  joinWords,
  pauseWordTolerance,
  settleAgreed,
  wordsBeforePause,
  type TimedWord,
} from './local-agreement.js';

const sampleRate = 16_000;
/** Silence after which the utterance is decoded at once, ahead of a possible endpoint (seconds). */
const pauseDecodeSeconds = 0.15;
/** A decode that waited this long for a recogniser thread found it shared (ms). */
const sharedRecogniserWaitMs = 100;
/** A VAD frame under this speech probability is quiet (Silero's exit threshold). */
const quietProbability = 0.35;
/** Quiet frames in a row that make a pause between words (4 × 32 ms). */
const pauseFrames = 4;

export interface StreamingSegment {
  type: 'partial' | 'final';
  /** Same id as the last segment: replaces it; a new id: appended. */
  segment: number;
  text: string;
}

export interface StreamingTuning {
  /** Re-decode the utterance once this much new audio has arrived (seconds). */
  partialStepSeconds: number;
  /**
   * The step while the recogniser is shared (this stream's last decode waited for a thread): fewer
   * partials, still at least one a second, leave the threads to every stream's finals.
   */
  busyPartialStepSeconds: number;
  /**
   * No partial before the utterance holds this much audio (seconds, with the 0.2 s of padding
   * before the voice): shorter, whisper guesses. 0.6 s with the 0.3 s retry of an empty partial:
   * first partial at p50 0.51 s, p95 0.98 s after the onset in bench:live (0.7 s: 0.66 / 1.03 s).
   */
  firstPartialSeconds: number;
  /**
   * While the utterance's decodes have found no word, the next one is due after this much new
   * audio (seconds) instead of `partialStepSeconds`: the first words show as soon as whisper hears them.
   */
  emptyPartialStepSeconds: number;
  /** Silence that ends an utterance of at least `minEndpointUtteranceSeconds` (ms). */
  endpointSilenceMs: number;
  /**
   * A shorter utterance ends only after `shortUtteranceSilenceMs` of silence: a pause of half a
   * second inside a sentence would otherwise cut it into fragments that Whisper, without the rest
   * of the sentence, recognises worse (more words at the cut are lost or misheard).
   */
  minEndpointUtteranceSeconds: number;
  /** Silence that ends an utterance shorter than `minEndpointUtteranceSeconds` (ms). */
  shortUtteranceSilenceMs: number;
  /**
   * Settled words before a pause of the voice become final once the utterance holds this much audio
   * before that pause (seconds); later decodes start at the pause. 0: never (each utterance is
   * decoded whole until its end).
   */
  commitPausesAfterSeconds: number;
  /** An utterance this long is cut at its best pause (seconds). */
  maxUtteranceSeconds: number;
  /** The cut is searched from this far into the utterance (seconds). */
  minCutSeconds: number;
  /** Without endpoints, a paragraph this long (characters) ends at the next final. */
  maxParagraphCharacters: number;
  /** Words ending less than this before the end of the audio decoded do not settle (seconds). */
  settleMarginSeconds: number;
  /**
   * Nothing settles before the utterance has this much audio decoded (seconds): decodes of its
   * first second or two, with no context, agree on wrong first words.
   */
  settleAfterSeconds: number;
  /** Undecoded audio beyond which `push` waits for the recogniser (seconds): the backpressure. */
  maxBacklogSeconds: number;
}

export const defaultStreamingTuning: StreamingTuning = {
  partialStepSeconds: 0.6,
  busyPartialStepSeconds: 1,
  firstPartialSeconds: 0.6,
  emptyPartialStepSeconds: 0.3,
  endpointSilenceMs: ENDPOINT_SILENCE_MS,
  minEndpointUtteranceSeconds: 3,
  shortUtteranceSilenceMs: 1000,
  commitPausesAfterSeconds: 3,
  maxUtteranceSeconds: 20,
  minCutSeconds: 6,
  maxParagraphCharacters: 2000,
  settleMarginSeconds: 1,
  settleAfterSeconds: 3,
  maxBacklogSeconds: 4,
};

export interface StreamingRecogniserOptions {
  vad: VadStream;
  recogniser: Recogniser;
  /** The model for a language (undefined: before it is known). */
  modelFor: (language: string | undefined) => { path: string };
  /** The recogniser's language, or undefined to detect it on the first utterance. */
  language: string | undefined;
  /** A fixed prompt (a vocabulary such as fr-medical's), before the previous final text. */
  prompt: string;
  decoding: DecodingChoices;
  /** false: pauses end the utterance (a final) but not the paragraph (the segment id stays). */
  endpoints: boolean;
  onSegment: (segment: StreamingSegment) => void;
  tuning?: Partial<StreamingTuning>;
}

export interface StreamingStatistics {
  /** Samples received (16 kHz). */
  samples: number;
  /** Recognitions run (partials and finals). */
  decodes: number;
  /** Audio given to those recognitions (samples, 16 kHz): each decode counts what it covered. */
  decodedSamples: number;
  /** Time spent recognising in the worker threads (ms). */
  recogniseMilliseconds: number;
  /** Finals that were the decode made at their pause (no decode after the endpoint). */
  finalsDecodedAhead: number;
  /** Finals of settled words before a pause, with no decode of their own. */
  finalsCommittedAtPauses: number;
}

interface Utterance {
  /** Where decoding starts: the voice's start, or the pause where earlier words became final. */
  startSample: number;
  /** Where the voice started, before any of its words became final at a pause. */
  voiceStartSample: number;
  /** Audio up to here has been decoded for the last partial. */
  decodedUntil: number;
  settled: TimedWord[];
  /** The last decode, continued after the settled words. */
  previous: TimedWord[] | undefined;
  /**
   * The voice paused long enough to end a longer utterance, but this one was too short: it ends
   * here if the silence lasts `shortUtteranceSilenceMs`, else it goes on with the next speech.
   */
  held: { endSample: number; voiceEndSample: number } | undefined;
  /**
   * The utterance decoded as a final is, at a pause (audio up to `endSample`): when no speech
   * follows before the endpoint, this is the final, with no decode left to wait for.
   */
  ahead: { endSample: number; words: TimedWord[]; language: string } | undefined;
}

interface PendingFinal {
  utterance: Utterance;
  endSample: number;
  /** Where the voice itself ends (before the end padding). */
  voiceEndSample: number;
  /** A pause ended it (a new paragraph with endpoints), not a cut of a long utterance. */
  endpoint: boolean;
  /** Settled words before a pause: the final's text, with no decode. */
  committed?: { words: TimedWord[]; language: string };
  /** Words heard after that pause, shown as a partial right after the final. */
  heardAfter?: TimedWord[];
}

/**
 * The live recogniser of one stream: 16 kHz mono audio in as it arrives, partial and final
 * segments out. Silero VAD finds speech and pauses; the current utterance is re-decoded (encoder
 * context fitted to it, the previous final text as prompt) every `partialStepSeconds` of new
 * audio (`busyPartialStepSeconds` while other streams share the recogniser) and shown as a
 * partial; a pause (`endpointSilenceMs`, or `shortUtteranceSilenceMs` while the utterance is
 * shorter than `minEndpointUtteranceSeconds`, so that a sentence is not cut into fragments at its
 * commas) or a long utterance (cut at its lowest-voice moment before `maxUtteranceSeconds`) makes
 * it final, decoded again whole as batch transcription decodes a window. Words settle by local
 * agreement: once two successive decodes agree on them they are kept as they are, and the final
 * text always begins with them; settled words before a short pause of the voice become final at
 * once, and decoding goes on from that pause. Silence is never decoded. One recognition at a time
 * per stream, finals first; `push` waits when the recogniser falls behind, so audio never piles up.
 */
export class StreamingRecogniser {
  readonly #options: StreamingRecogniserOptions;
  readonly #tuning: StreamingTuning;
  readonly #detector: SpeechDetector;
  readonly #audio = new RetainedAudio();
  readonly #abort = new AbortController();
  /** VAD probability of each frame since `#probabilitiesStart` (frame index). */
  #probabilities: number[] = [];
  #probabilitiesStart = 0;
  #current: Utterance | undefined;
  /** End of the last utterance: the next one cannot start before it. */
  #lastUtteranceEnd = 0;
  readonly #finals: PendingFinal[] = [];
  #decoding: Promise<void> | undefined;
  #failure: unknown = undefined;
  #language: string | undefined;
  /** The text of the finals so far (the tail is the next prompt). */
  #previousText = '';
  #paragraph = { id: 0, text: '' };
  /** The paragraph's last message was a partial with words: a final must replace it. */
  #partialShown = false;
  #finished = false;
  /** No audio will come beyond what the caller still has to push: no more partials. */
  #inputEnded = false;
  /** The last decode waited for a recogniser thread: other streams (or recordings) share it. */
  #recogniserShared = false;
  /** The partial (or ahead-of-pause) decode in progress and what cancels it (not the stream). */
  #partialDecode: { cancel: AbortController; kind: 'partial' | 'ahead' } | undefined;
  readonly #statistics: StreamingStatistics = {
    samples: 0,
    decodes: 0,
    decodedSamples: 0,
    recogniseMilliseconds: 0,
    finalsDecodedAhead: 0,
    finalsCommittedAtPauses: 0,
  };

  constructor(options: StreamingRecogniserOptions) {
    this.#options = options;
    this.#tuning = { ...defaultStreamingTuning, ...options.tuning };
    this.#language = options.language;
    this.#detector = new SpeechDetector({ minSilenceMs: this.#tuning.endpointSilenceMs, speechPadMs: 200 });
  }

  get statistics(): StreamingStatistics {
    return { ...this.#statistics };
  }

  /** The language recognised: the one asked for, or the one detected (undefined until then). */
  get language(): string | undefined {
    return this.#language;
  }

  /** True while a recognition of this stream is running or waiting for a thread. */
  get busy(): boolean {
    return this.#decoding !== undefined;
  }

  /**
   * Audio in (16 kHz mono, any length). Resolves once it is analysed, or, when the recogniser has
   * fallen more than `maxBacklogSeconds` behind, once it has caught up. Rejects with the
   * recognition's error if one failed.
   */
  async push(samples: Float32Array): Promise<void> {
    this.#throwIfFailed();
    if (this.#finished) throw new Error('StreamingRecogniser.push after finish');
    if (samples.length === 0) return;
    this.#audio.append(samples);
    this.#statistics.samples += samples.length;
    const probabilities = await this.#options.vad.probabilities(samples);
    for (const probability of probabilities) this.#step(probability);
    this.#forgetUnneededAudio();
    this.#pump();
    while (this.#decoding && this.#backlogSamples() > this.#tuning.maxBacklogSeconds * sampleRate) {
      await this.#decoding;
    }
    this.#throwIfFailed();
  }

  /** End of the audio: the utterance in progress becomes final; resolves once every final is sent. */
  async finish(): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    this.#throwIfFailed();
    const total = this.#statistics.samples;
    const last = await this.#options.vad.flush();
    for (const region of this.#detector.flush(total, last)) this.#endRegion(region);
    const end = Math.min(total, this.#audio.endSample);
    const held = this.#current?.held;
    if (held) this.#endUtterance(held.endSample, held.voiceEndSample, true);
    else if (this.#current) this.#endUtterance(end, end, true);
    this.#pump();
    while (this.#decoding) await this.#decoding;
    this.#throwIfFailed();
  }

  /**
   * The client said its audio is complete (the caller may still be pushing what it received
   * before): partials are no longer decoded and the one in progress is cancelled, so the recogniser
   * threads go straight to the finals. A client that sent a recording faster than it is analysed
   * gets its last final without waiting for partials nobody will see.
   */
  endOfInput(): void {
    this.#inputEnded = true;
    this.#partialDecode?.cancel.abort();
  }

  /** Stops at once: the recognition in progress is cancelled (its thread freed), nothing more is sent. */
  abort(): void {
    this.#finished = true;
    this.#finals.length = 0;
    this.#current = undefined;
    this.#abort.abort();
  }

  #throwIfFailed(): void {
    const failure = this.#failure;
    if (failure !== undefined)
      throw failure instanceof Error
        ? failure
        : new Error('The live recognition failed.', { cause: failure });
  }

  #step(probability: number): void {
    const frame = this.#detector.position / VAD_FRAME_SAMPLES;
    if (this.#probabilities.length === 0) this.#probabilitiesStart = frame;
    this.#probabilities.push(probability);
    for (const region of this.#detector.push([probability])) this.#endRegion(region);
    const open = this.#detector.openRegion;
    if (!this.#current && open) {
      this.#current = this.#newUtterance(Math.max(open.startSample, this.#lastUtteranceEnd));
    }
    const current = this.#current;
    if (current?.held) {
      if (open) current.held = undefined;
      else if (
        this.#detector.position - current.held.voiceEndSample >=
        this.#tuning.shortUtteranceSilenceMs * 16
      ) {
        this.#endUtterance(current.held.endSample, current.held.voiceEndSample, true);
        return;
      }
    }
    if (
      current &&
      this.#detector.position - current.startSample >= this.#tuning.maxUtteranceSeconds * sampleRate
    ) {
      this.#cut(current);
    }
  }

  #newUtterance(startSample: number, voiceStartSample = startSample): Utterance {
    return {
      startSample,
      voiceStartSample,
      decodedUntil: startSample,
      settled: [],
      previous: undefined,
      held: undefined,
      ahead: undefined,
    };
  }

  #endRegion(region: SpeechRegion): void {
    // A region the detector confirmed and closed within the same frames starts here too.
    const utterance = (this.#current ??= this.#newUtterance(
      Math.max(region.startSample, this.#lastUtteranceEnd),
    ));
    const voiceSeconds = (region.speechEndSample - utterance.voiceStartSample) / sampleRate;
    if (voiceSeconds >= this.#tuning.minEndpointUtteranceSeconds) {
      this.#endUtterance(region.endSample, region.speechEndSample, true);
    } else {
      utterance.held = { endSample: region.endSample, voiceEndSample: region.speechEndSample };
    }
  }

  #endUtterance(endSample: number, voiceEndSample: number, endpoint: boolean): void {
    const utterance = this.#current;
    if (!utterance) return;
    this.#current = undefined;
    const end = Math.max(endSample, utterance.startSample);
    this.#lastUtteranceEnd = end;
    this.#finals.push({ utterance, endSample: end, voiceEndSample, endpoint });
    this.#cancelPartial();
  }

  /**
   * A final is due: a partial of this stream still waiting for a thread (behind other streams'
   * work) or running would hold it back, and nobody will see it. A decode ahead at a pause is
   * kept: it is the final's own decode.
   */
  #cancelPartial(): void {
    if (this.#partialDecode?.kind === 'partial') this.#partialDecode.cancel.abort();
  }

  /** A long utterance: final up to its quietest moment, the rest continues as a new utterance. */
  #cut(utterance: Utterance): void {
    const firstFrame = Math.ceil(
      (utterance.startSample + this.#tuning.minCutSeconds * sampleRate) / VAD_FRAME_SAMPLES,
    );
    const lastFrame = Math.floor(this.#detector.position / VAD_FRAME_SAMPLES) - 2;
    let bestFrame = lastFrame;
    let bestScore = Infinity;
    for (let frame = firstFrame; frame <= lastFrame; frame += 1) {
      // The mean of 4 frames (128 ms): a pause, not a single quiet frame inside a word.
      let sum = 0;
      for (let k = 0; k < 4; k += 1) sum += this.#probabilities[frame + k - this.#probabilitiesStart] ?? 1;
      const score = sum / 4;
      if (score <= bestScore) {
        bestScore = score;
        bestFrame = frame;
      }
    }
    const cutSample = Math.max(utterance.startSample, (bestFrame + 2) * VAD_FRAME_SAMPLES);
    const cutSeconds = cutSample / sampleRate;
    // Settled words before the cut stay settled in the final; later ones are decoded again.
    const kept = utterance.settled.filter((word) => word.end <= cutSeconds + 0.1);
    this.#finals.push({
      utterance: { ...utterance, settled: kept, ahead: undefined },
      endSample: cutSample,
      voiceEndSample: cutSample,
      endpoint: false,
    });
    this.#current = this.#newUtterance(cutSample);
    this.#lastUtteranceEnd = cutSample;
    this.#cancelPartial();
  }

  #forgetUnneededAudio(): void {
    const needed = Math.min(
      this.#finals[0]?.utterance.startSample ?? Infinity,
      this.#current?.startSample ?? Infinity,
      this.#detector.earliestPendingSample,
    );
    this.#audio.dropBefore(Math.min(needed, this.#audio.endSample));
    const neededFrame = Math.floor(Math.min(needed, this.#detector.position) / VAD_FRAME_SAMPLES);
    const drop = neededFrame - this.#probabilitiesStart;
    if (drop > 0) {
      this.#probabilities = this.#probabilities.slice(drop);
      this.#probabilitiesStart = neededFrame;
    }
  }

  #backlogSamples(): number {
    const pendingFinals = this.#finals.reduce(
      (sum, pending) => sum + pending.endSample - pending.utterance.startSample,
      0,
    );
    const current = this.#current ? this.#audio.endSample - this.#current.decodedUntil : 0;
    return pendingFinals + current;
  }

  /**
   * The voice has paused for a moment and the last decode did not hear its end: decode now, so
   * that if the pause becomes an endpoint this decode serves as the final without waiting.
   */
  #pauseDue(utterance: Utterance): boolean {
    const open = this.#detector.openRegion;
    if (!open || this.#finished) return false;
    if (this.#inputEnded) return false;
    const paused = this.#detector.position - open.speechEndSample >= pauseDecodeSeconds * sampleRate;
    // Once per pause: a partial that happened to cover it was greedy, not what the final needs.
    const aheadUntil = utterance.ahead?.endSample ?? utterance.startSample;
    return paused && aheadUntil < open.speechEndSample + 0.1 * sampleRate;
  }

  /** Starts the next recognition if none is running: a pending final first, else a due partial. */
  #pump(): void {
    if (this.#decoding || this.#abort.signal.aborted || this.#failure !== undefined) return;
    const final = this.#finals.shift();
    let work: Promise<void> | undefined;
    if (final) {
      work = this.#decodeFinal(final);
    } else {
      const current = this.#current;
      const step =
        current?.previous?.length === 0
          ? this.#tuning.emptyPartialStepSeconds
          : this.#recogniserShared
            ? this.#tuning.busyPartialStepSeconds
            : this.#tuning.partialStepSeconds;
      const due =
        current !== undefined &&
        current.held === undefined &&
        !this.#finished &&
        !this.#inputEnded &&
        this.#audio.endSample - current.decodedUntil >= step * sampleRate &&
        this.#audio.endSample - current.startSample >= this.#tuning.firstPartialSeconds * sampleRate;
      if (current && this.#pauseDue(current)) work = this.#decodePartial(current, 'ahead');
      else if (current && due) work = this.#decodePartial(current, 'partial');
    }
    if (!work) return;
    this.#decoding = work
      .catch((error: unknown) => {
        if (this.#abort.signal.aborted && isSpeechError(error) && error.code === 'CANCELLED') return;
        this.#failure = error;
      })
      .finally(() => {
        this.#decoding = undefined;
        this.#forgetUnneededAudio();
        this.#pump();
      });
  }

  async #recognise(
    startSample: number,
    endSample: number,
    partial: boolean,
    signal: AbortSignal = this.#abort.signal,
  ): Promise<{ words: TimedWord[]; language: string }> {
    const samples = this.#audio.slice(startSample, Math.min(endSample, this.#audio.endSample));
    const submitted = performance.now();
    const result = await recogniseWindow(
      this.#options.recogniser,
      {
        modelPath: this.#options.modelFor(this.#language).path,
        start: startSample / sampleRate,
        samples,
        language: this.#language,
        prompt: this.#options.prompt,
        previousText: this.#previousText,
        signal,
        // A final is decoded as batch transcription decodes a window (beam per language,
        // temperature fallback, no token cap); a partial is one quick greedy pass.
        live: partial ? 'partial' : 'final',
      },
      this.#options.decoding,
    );
    this.#statistics.decodes += 1;
    this.#statistics.decodedSamples += samples.length;
    this.#statistics.recogniseMilliseconds += result.recogniseMilliseconds;
    this.#recogniserShared =
      performance.now() - submitted - result.recogniseMilliseconds > sharedRecogniserWaitMs;
    // Words placed at the very end of the audio were heard in the silent margin of the encoder's
    // context, not in the audio (whisper repeating the utterance there).
    const audioEnd = (startSample + samples.length) / sampleRate;
    const words = result.segments.filter((segment) => segment.start < audioEnd - 0.05).flatMap(wordsOf);
    return { words, language: result.language };
  }

  /**
   * A partial while the voice goes on; `ahead` at a pause: decoded as the final would be, kept on
   * the utterance to serve as its final, and shown as a partial meanwhile.
   */
  async #decodePartial(utterance: Utterance, kind: 'partial' | 'ahead'): Promise<void> {
    const endSample = this.#audio.endSample;
    const decodedBefore = utterance.decodedUntil;
    utterance.decodedUntil = endSample;
    const cancel = new AbortController();
    const decode = { cancel, kind };
    this.#partialDecode = decode;
    let words: TimedWord[];
    try {
      let language: string;
      ({ words, language } = await this.#recognise(
        utterance.startSample,
        endSample,
        kind === 'partial',
        AbortSignal.any([this.#abort.signal, cancel.signal]),
      ));
      if (kind === 'ahead') utterance.ahead = { endSample, words, language };
    } catch (error) {
      // Cancelled by `endOfInput` or a final of this stream: the final decodes this audio next.
      if (cancel.signal.aborted && isSpeechError(error) && error.code === 'CANCELLED') return;
      if (isPreempted(error)) {
        // Gave way to another stream's final: the next partial is due at once.
        utterance.decodedUntil = decodedBefore;
        return;
      }
      throw error;
    } finally {
      if (this.#partialDecode === decode) this.#partialDecode = undefined;
    }
    if (this.#abort.signal.aborted || this.#current !== utterance) {
      // Ended (or cut) meanwhile: the final decode starts from what settled here.
      this.#settle(utterance, words, endSample);
      return;
    }
    const shown = this.#settle(utterance, words, endSample);
    if (this.#commitBeforePause(utterance, shown, endSample)) return;
    this.#showPartial(shown);
  }

  #showPartial(words: TimedWord[]): void {
    const text = joinText(this.#paragraph.text, joinWords(words));
    if (!text && !this.#partialShown) return;
    this.#partialShown = true;
    this.#options.onSegment({ type: 'partial', segment: this.#paragraph.id, text });
  }

  /**
   * Every word heard before a pause of the voice has settled: those words become final now (they
   * would begin the final text anyway) and the utterance goes on from the pause, so that later
   * decodes (partials and the final) cover only the audio after it, with the final text as prompt,
   * as batch transcription starts a window at a pause. A long sentence then costs what its last
   * phrase costs, not its whole length again at every partial.
   */
  #commitBeforePause(utterance: Utterance, heard: TimedWord[], endSample: number): boolean {
    const language = this.#language;
    if (this.#tuning.commitPausesAfterSeconds <= 0 || language === undefined) return false;
    if (utterance.settled.length === 0 || this.#finished || this.#inputEnded) return false;
    const pause = this.#latestSettledPause(utterance, heard, endSample);
    if (!pause) return false;
    const before = heard.slice(0, pause.wordsBefore);
    const after = heard.slice(pause.wordsBefore);
    this.#finals.push({
      utterance: { ...utterance, settled: before, ahead: undefined },
      endSample: pause.sample,
      voiceEndSample: pause.sample,
      endpoint: false,
      committed: { words: before, language },
      heardAfter: after,
    });
    const next = this.#newUtterance(pause.sample, utterance.voiceStartSample);
    next.decodedUntil = endSample;
    next.previous = after;
    this.#current = next;
    this.#lastUtteranceEnd = pause.sample;
    return true;
  }

  /**
   * The latest pause (`pauseFrames` quiet VAD frames) at least `commitPausesAfterSeconds` into the
   * utterance such that every word heard before it has settled and the words fall clearly on
   * either side of it.
   */
  #latestSettledPause(
    utterance: Utterance,
    heard: TimedWord[],
    endSample: number,
  ): { sample: number; wordsBefore: number } | undefined {
    const settledEnd = utterance.settled.at(-1)?.end ?? 0;
    const firstFrame = Math.ceil(
      (utterance.startSample + this.#tuning.commitPausesAfterSeconds * sampleRate) / VAD_FRAME_SAMPLES,
    );
    const lastFrame = Math.min(
      Math.floor(endSample / VAD_FRAME_SAMPLES),
      Math.floor(((settledEnd + pauseWordTolerance) * sampleRate) / VAD_FRAME_SAMPLES),
    );
    let quietEnd = lastFrame;
    for (let frame = lastFrame; frame >= firstFrame; frame -= 1) {
      const quiet = (this.#probabilities[frame - this.#probabilitiesStart] ?? 1) < quietProbability;
      if (!quiet) {
        quietEnd = frame - 1;
        continue;
      }
      if (quietEnd - frame + 1 < pauseFrames) continue;
      const sample = Math.round(((frame + quietEnd + 1) / 2) * VAD_FRAME_SAMPLES);
      const wordsBefore = wordsBeforePause(heard, sample / sampleRate);
      if (wordsBefore !== undefined && wordsBefore > 0 && wordsBefore <= utterance.settled.length) {
        return { sample, wordsBefore };
      }
      quietEnd = frame - 1;
    }
    return undefined;
  }

  /** Settles what two successive decodes agree on; returns the words to show. */
  #settle(utterance: Utterance, words: TimedWord[], endSample: number): TimedWord[] {
    const continued = continueSettled(utterance.settled, words);
    utterance.settled = settleAgreed(
      utterance.settled,
      utterance.previous,
      continued,
      endSample - utterance.startSample < this.#tuning.settleAfterSeconds * sampleRate
        ? -Infinity
        : endSample / sampleRate - this.#tuning.settleMarginSeconds,
    );
    utterance.previous = continued;
    return continued;
  }

  async #decodeFinal(pending: PendingFinal): Promise<void> {
    const { utterance } = pending;
    // Decoded at the pause with every word of the utterance, and only silence since: that is the final.
    const ahead =
      utterance.ahead && utterance.ahead.endSample >= pending.voiceEndSample ? utterance.ahead : undefined;
    if (pending.committed) this.#statistics.finalsCommittedAtPauses += 1;
    else if (ahead) this.#statistics.finalsDecodedAhead += 1;
    const { words, language } =
      pending.committed ?? ahead ?? (await this.#recognise(utterance.startSample, pending.endSample, false));
    if (this.#abort.signal.aborted) return;
    if (this.#language === undefined && words.length > 0) this.#language = language;
    const text = joinWords(continueSettled(utterance.settled, words));
    if (text) {
      this.#previousText = `${this.#previousText} ${text}`.slice(-1000).trim();
      this.#paragraph.text = joinText(this.#paragraph.text, text);
    }
    if (text || this.#partialShown) {
      this.#options.onSegment({ type: 'final', segment: this.#paragraph.id, text: this.#paragraph.text });
    }
    this.#partialShown = false;
    const newParagraph = this.#options.endpoints
      ? pending.endpoint
      : this.#paragraph.text.length >= this.#tuning.maxParagraphCharacters;
    if (newParagraph && this.#paragraph.text) this.#paragraph = { id: this.#paragraph.id + 1, text: '' };
    // The words after the pause stay on screen, as they were before the final.
    if (pending.heardAfter && pending.heardAfter.length > 0 && !this.#finished)
      this.#showPartial(pending.heardAfter);
  }
}

function joinText(before: string, after: string): string {
  return [before, after].filter(Boolean).join(' ');
}

function wordsOf(segment: Omit<TranscriptSegment, 'id'>): TimedWord[] {
  if (segment.words.length > 0) return segment.words.map(({ text, start, end }) => ({ text, start, end }));
  // No word times: the segment's words spread over it.
  const texts = segment.text.split(/\s+/).filter(Boolean);
  const span = (segment.end - segment.start) / Math.max(1, texts.length);
  return texts.map((text, index) => ({
    text,
    start: segment.start + index * span,
    end: segment.start + (index + 1) * span,
  }));
}
