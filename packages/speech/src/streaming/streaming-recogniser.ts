import { recogniseWindow, type DecodingChoices } from '../engine/window-recognition.js';
import { isPreempted, type Recogniser } from '../recogniser/recogniser-pool.js';
import { isSpeechError } from '../speech-error.js';
import type { TranscriptSegment } from '../transcript.js';
import { RetainedAudio } from '../vad/retained-audio.js';
import { VAD_FRAME_SAMPLES, type VadStream } from '../vad/silero-vad.js';
import { ENDPOINT_SILENCE_MS, SpeechDetector, type SpeechRegion } from '../vad/speech-detector.js';
import { MAX_GAP_INSIDE_WINDOW_SECONDS } from '../vad/speech-windows.js';
import {
  continueSettled,
  joinWords,
  settleAgreed,
  continuedAfterPrefix,
  prefixWithoutStop,
  withoutRepeatedContext,
  withoutRepeatedLead,
  withoutSqueezedRepeat,
  type TimedWord,
} from './local-agreement.js';

const sampleRate = 16_000;
/** A decode that waited this long for a recogniser thread found it shared (ms). */
const sharedRecogniserWaitMs = 100;
/** A phrase decoded after a final at a pause starts this long before the voice resumed (seconds). */
const resumeLeadSeconds = 0.1;

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
  /**
   * Silence that makes a pause (seconds): the words decoded up to it may become final when the
   * voice goes on (`commitPausesAfterSeconds`).
   */
  pauseSeconds: number;
  /**
   * Silence after which the utterance is decoded as its final would be (seconds), ahead of a pause
   * and of a possible endpoint; cancelled if the voice resumes before the silence makes a pause.
   * Audio comes in chunks (128 ms in bench:live): waiting for the whole pause before decoding cost
   * one more chunk at the end of most sentences (bench:live, one session: p50 0.77-0.88 → 0.61-0.63 s).
   */
  aheadDecodeSeconds: number;
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
   * Silence after which the decode made at a pause (`aheadDecodeSeconds` into it, decoded as a
   * final is) is sent as the final, without waiting for the endpoint (ms). The endpoint rule
   * still decides the paragraph: if the voice goes on before it, the text goes on in the same
   * segment, decoded from the pause after the final's last words (see `phraseContextSeconds`).
   */
  pauseFinalSilenceMs: number;
  /**
   * When the voice resumed while the pause's decode ran, its words become final all the same once
   * the utterance holds this much audio before the pause (seconds); later decodes start at the
   * pause, so a sentence costs its last phrase at the end (and at `Done`), not its whole length.
   * 0: never (tiny models, which decode a phrase started mid-sentence badly). 3 s instead of 2 s
   * gave French finals 36 -> 29 errors of 140 words in bench:live (batch 28) on an AVX-512 EPYC,
   * 28 -> 32 on an AVX2 one (Spanish 14 -> 15): no better on both, so 2 s.
   */
  commitPausesAfterSeconds: number;
  /**
   * An utterance this long (since its last words became final) is cut at its quietest moment
   * (seconds), and decoded up to there while the voice goes on: a long sentence spoken without a
   * pause then costs its last seconds at its end. 20 s: in bench:live (one session) sentences of
   * 11-14 s waited 0.9-1.7 s for their final; 9 s: p95 1.41-1.88 → 1.19-1.38 s, finals' WER
   * 16.45-16.88 → 15.37-15.58 % (batch 15.58 %).
   */
  maxUtteranceSeconds: number;
  /**
   * A phrase after words that became final at a pause is decoded with the last of them (from the
   * first word that starts at most this long before the pause, seconds) and their audio before
   * it, those words forced as what the decoder continues from: it hears the sentence go on instead
   * of a sentence of its own. 0: decoded alone. See `PhraseContext`.
   */
  phraseContextSeconds: number;
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
  pauseSeconds: 0.15,
  aheadDecodeSeconds: 0.06,
  endpointSilenceMs: ENDPOINT_SILENCE_MS,
  minEndpointUtteranceSeconds: 3,
  shortUtteranceSilenceMs: 1000,
  pauseFinalSilenceMs: 250,
  commitPausesAfterSeconds: 2,
  maxUtteranceSeconds: 9,
  phraseContextSeconds: 3,
  minCutSeconds: 4,
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
  /**
   * Of those, audio before a phrase decoded again as its context (`PhraseContext`): unlike the
   * total, which counts partials, it does not depend on how fast the machine decodes.
   */
  contextSamples: number;
  /** Time spent recognising in the worker threads (ms). */
  recogniseMilliseconds: number;
  /** Finals that were the decode made at their pause, sent at the endpoint (no decode after it). */
  finalsDecodedAhead: number;
  /** Finals that were the decode made at a pause, sent before any endpoint (no decode of their own). */
  finalsCommittedAtPauses: number;
  /** Finals made of the words partials had settled, at the end of the audio (no decode of their own). */
  finalsFromSettledWords: number;
}

interface Utterance {
  /** Where decoding starts: the voice's start, or the pause where earlier words became final. */
  startSample: number;
  /** Where the voice started, before any of its words became final at a pause. */
  voiceStartSample: number;
  /**
   * The phrase before `startSample` when its words became final at a pause of the same voice: a
   * final of this utterance is decoded from the phrase's start, its final text forced as what the
   * decoder continues from, so that the sentence's next words are heard after its first ones, as
   * batch hears them, and not as a sentence of their own.
   */
  context: PhraseContext | undefined;
  /** Audio up to here has been decoded for the last partial. */
  decodedUntil: number;
  settled: TimedWord[];
  /** The last decode, continued after the settled words. */
  previous: TimedWord[] | undefined;
  /**
   * The latest silence of the voice (`aheadDecodeSeconds` at least): where the voice stopped, and
   * the last sample of silence heard after it. Kept when the voice resumes, so that a pause heard
   * while the recogniser was busy is still decoded (up to that silence).
   */
  pause: Pause | undefined;
  /**
   * The voice paused long enough to end a longer utterance, but this one was too short: it ends
   * here if the silence lasts `shortUtteranceSilenceMs`, else it goes on with the next speech.
   */
  held: { endSample: number; voiceEndSample: number } | undefined;
  /**
   * The utterance decoded as a final is, at a pause (audio up to `endSample`, the voice silent
   * since `pauseSample`): when no speech follows, this is the final, with no decode left to wait for.
   */
  ahead: Ahead | undefined;
}

/**
 * Audio whose words are final, decoded again before a phrase with those words as the decoder's
 * prefix. Measured on the dev set's clips cut at their pauses as live finals cut them (base; greedy
 * for English, beam 5 for the rest), errors of the phrases decoded alone against with the last 3 s
 * of the phrase before: en 69 → 58 of 963 words, fr 58 → 57 of 206, de 27 → 25 of 129, es 33 → 32
 * of 182 (the clips decoded whole: 46, 44, 28, 29); alone, a short phrase was often heard twice ("I
 * felt too sick. I felt too sick."). A continued phrase's decode takes 15-33 % longer; with the whole
 * phrase before it instead of its last 3 s, 173 errors in all (172) for 45-80 % longer.
 */
interface PhraseContext {
  startSample: number;
  /** Where its voice ended. */
  endSample: number;
  /** Its final words: their text is the decoder's prefix, and a decode saying them again is cut there. */
  words: TimedWord[];
}

/** A silence of the voice: where it stopped, and the last silent sample heard (kept once it resumes). */
interface Pause {
  pauseSample: number;
  endSample: number;
}

interface Ahead {
  /** The silence it was decoded at (the same object, whose silence may still become a pause). */
  pause: Pause;
  endSample: number;
  words: TimedWord[];
  language: string;
}

interface PendingFinal {
  utterance: Utterance;
  endSample: number;
  /** Where the voice itself ends (before the end padding). */
  voiceEndSample: number;
  /** A pause ended it (a new paragraph with endpoints), not a cut of a long utterance. */
  endpoint: boolean;
  /** Decoded in one greedy pass: the rest of a sentence after Stop, which a person is waiting for. */
  greedy?: boolean;
  /**
   * The final's text, with no decode: the words of the decode made at a pause, or at the end of the
   * audio those the partials settled.
   */
  committed?: { words: TimedWord[]; language: string; from: 'pause' | 'settled' };
}

/**
 * The live recogniser of one stream: 16 kHz mono audio in as it arrives, partial and final
 * segments out. Silero VAD finds speech and pauses; the current utterance is re-decoded (encoder
 * context fitted to it, the previous final text as prompt) every `partialStepSeconds` of new
 * audio (`busyPartialStepSeconds` while other streams share the recogniser) and shown as a
 * partial (greedy). When the voice falls silent (`aheadDecodeSeconds`) the utterance is decoded as
 * batch transcription decodes a window (beam, temperature fallback; greedy while other work shares
 * the recogniser), and that decode is the final as soon as the silence lasts `pauseFinalSilenceMs`
 * (cancelled if the voice resumes before the silence is a pause, `pauseSeconds`): a sentence
 * settles when it is decoded, not after the endpoint rule and another decode. The endpoint rule
 * (`endpointSilenceMs`, or `shortUtteranceSilenceMs` while the utterance is shorter than
 * `minEndpointUtteranceSeconds`, so that a sentence is not cut into paragraphs at its commas) ends
 * the paragraph, and makes final whatever no pause's decode covered; a long utterance is cut at its
 * lowest-voice moment before `maxUtteranceSeconds`. Finals are never contradicted: later text in
 * the paragraph is appended to them, decoded from their pause after their last words
 * (`PhraseContext`); so `Done` only has to decode what followed the last final (and, when
 * partials of it were shown, what followed their settled words).
 * When the utterance ends while a pause's decode runs, that decode's words become a final all the
 * same and only the rest is decoded. No partial is decoded while the voice is silent, and a pause's
 * decode cancels the partial in progress: it hears the same audio, and the person waits for it.
 * Partials settle words by local agreement (two successive decodes agree); where finals are greedy
 * too, the final text begins with them. Silence is never decoded.
 * One recognition at a time per stream, finals first; `push` waits when the recogniser falls
 * behind, so audio never piles up.
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
  /** The words of the last final: a decode after it must not begin by saying them again. */
  #finalWords: TimedWord[] = [];
  #paragraph = { id: 0, text: '' };
  /** The paragraph's last message was a partial with words: a final must replace it. */
  #partialShown = false;
  #finished = false;
  /** No audio will come beyond what the caller still has to push: no more partials. */
  #inputEnded = false;
  /** Stop came while partials of the sentence were shown: its last final is flushed (see #commitSettled). */
  #flushing = false;
  /** The last decode waited for a recogniser thread: other streams (or recordings) share it. */
  #recogniserShared = false;
  /**
   * The partial (or ahead-of-pause) decode in progress, what cancels it (not the stream) and the
   * utterance it decodes; `pause` is the silence an ahead decode was begun at, undefined for a partial.
   */
  #partialDecode: { cancel: AbortController; pause: Pause | undefined; utterance: Utterance } | undefined;
  readonly #statistics: StreamingStatistics = {
    samples: 0,
    decodes: 0,
    decodedSamples: 0,
    contextSamples: 0,
    recogniseMilliseconds: 0,
    finalsDecodedAhead: 0,
    finalsCommittedAtPauses: 0,
    finalsFromSettledWords: 0,
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
    // The person watched this sentence as partials and pressed Stop: it settles at once.
    this.#flushing = this.#inputEnded && this.#partialShown;
    if (this.#flushing && this.#current && !this.#current.held) this.#commitSettled(this.#current, total);
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
      this.#current = this.#newUtterance(this.#utteranceStart(open.startSample));
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
      this.#detector.position - current.startSample >= this.#tuning.maxUtteranceSeconds * sampleRate &&
      !this.#decodingAhead(current)
    ) {
      this.#cut(current);
      return;
    }
    if (current) this.#notePause(current);
    // The voice went on from a moment's silence, not a pause: its decode would be neither final nor new.
    const decode = this.#partialDecode;
    if (decode?.pause && !this.#isPause(decode.pause) && this.#voiceSince(decode.pause.endSample))
      decode.cancel.abort();
    // The pause's decode covers what the partial in progress hears, and is the sentence's final.
    if (current && decode && !decode.pause && this.#pauseDue(current)) this.#cancelPartial();
    if (current?.ahead) this.#finalAtPause(current);
  }

  /**
   * Where the utterance whose voice the VAD heard from `regionStart` starts. A stream that starts
   * in the middle of speech (a recording streamed from a cut, a microphone opened mid-sentence)
   * keeps its beginning: Silero, starting from an empty state, often hears the first words only
   * a second or two in, as batch windows also allow for (speech-windows.ts).
   */
  #utteranceStart(regionStart: number): number {
    if (this.#lastUtteranceEnd === 0 && regionStart <= MAX_GAP_INSIDE_WINDOW_SECONDS * sampleRate) return 0;
    return Math.max(regionStart, this.#lastUtteranceEnd);
  }

  #newUtterance(
    startSample: number,
    voiceStartSample = startSample,
    context: PhraseContext | undefined = undefined,
  ): Utterance {
    return {
      startSample,
      voiceStartSample,
      context,
      decodedUntil: startSample,
      settled: [],
      previous: undefined,
      held: undefined,
      ahead: undefined,
      pause: undefined,
    };
  }

  #endRegion(region: SpeechRegion): void {
    // A region the detector confirmed and closed within the same frames starts here too.
    const utterance = (this.#current ??= this.#newUtterance(this.#utteranceStart(region.startSample)));
    const voiceSeconds = (region.speechEndSample - utterance.voiceStartSample) / sampleRate;
    if (voiceSeconds >= this.#tuning.minEndpointUtteranceSeconds) {
      this.#endUtterance(region.endSample, region.speechEndSample, true);
    } else {
      utterance.held = { endSample: region.endSample, voiceEndSample: region.speechEndSample };
      // A silence this long is more often between two sentences than inside one: what follows
      // is decoded alone (after a sentence of another voice, its phrase misled the decoder).
      utterance.context = undefined;
    }
  }

  #endUtterance(endSample: number, voiceEndSample: number, endpoint: boolean): void {
    const utterance = this.#current;
    if (!utterance) return;
    this.#current = undefined;
    const end = Math.max(endSample, utterance.startSample);
    this.#lastUtteranceEnd = end;
    this.#finals.push({ utterance, endSample: end, voiceEndSample, endpoint, greedy: this.#flushing });
    this.#cancelPartial();
  }

  /**
   * A final is due: a partial of this stream still waiting for a thread (behind other streams'
   * work) or running would hold it back, and nobody will see it. A decode ahead at a pause is
   * kept: it is the final's own decode.
   */
  #cancelPartial(): void {
    if (this.#partialDecode && !this.#partialDecode.pause) this.#partialDecode.cancel.abort();
  }

  /**
   * A decode made at a pause of the utterance is running: a cut now would decode the same audio
   * again for its final, while that decode, once done, makes its words final at the pause if the
   * voice went on from a pause (#finalAtPause) and the utterance starts again there; else the cut
   * follows. Under load a long beam decode outlasts the seconds left before the cut (bench:live,
   * French: a 9.9 s window decoded twice, 2.7 + 3.1 s, the sentence's final 4 s late).
   */
  #decodingAhead(utterance: Utterance): boolean {
    return this.#partialDecode?.pause !== undefined && this.#partialDecode.utterance === utterance;
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
    // The stream's first seconds, until its first utterance starts (see #utteranceStart).
    const firstWords =
      this.#lastUtteranceEnd === 0 &&
      this.#detector.position <= (MAX_GAP_INSIDE_WINDOW_SECONDS + 1) * sampleRate
        ? 0
        : Infinity;
    const needed = Math.min(
      decodeStart(this.#finals[0]?.utterance),
      decodeStart(this.#current),
      this.#detector.earliestPendingSample,
      firstWords,
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
    const pause = utterance.pause;
    if (!pause || this.#finished || this.#inputEnded) return false;
    // Once per pause: a partial that happened to cover it was greedy, not what the final needs.
    const aheadUntil = utterance.ahead?.endSample ?? utterance.startSample;
    if (aheadUntil >= pause.pauseSample + 0.1 * sampleRate) return false;
    // A pause the voice has gone on from is worth decoding only if its words become final.
    return (
      !this.#voiceSince(pause.endSample) ||
      (this.#isPause(pause) && this.#commitsAt(utterance, pause.pauseSample))
    );
  }

  /** Words before a pause the voice went on from become final (`commitPausesAfterSeconds`). */
  #commitsAt(utterance: Utterance, pauseSample: number): boolean {
    return !this.#inputEnded && this.#longEnoughToCommit(utterance, pauseSample);
  }

  #longEnoughToCommit(utterance: Utterance, pauseSample: number): boolean {
    const after = this.#tuning.commitPausesAfterSeconds;
    return after > 0 && pauseSample - utterance.startSample >= after * sampleRate;
  }

  /** Notes the voice's pause (silence after it) on the utterance, for the decode due at a pause. */
  #notePause(utterance: Utterance): void {
    const voiceEnd = this.#detector.openRegion?.speechEndSample ?? utterance.held?.voiceEndSample;
    // After a final at a pause, until the voice resumes, there is nothing new to decode.
    if (voiceEnd === undefined || voiceEnd <= utterance.startSample) return;
    if (this.#detector.position - voiceEnd < this.#tuning.aheadDecodeSeconds * sampleRate) return;
    // The same silence grows (an ahead decode begun in it holds this object); a new one replaces it.
    if (utterance.pause?.pauseSample === voiceEnd) utterance.pause.endSample = this.#detector.position;
    else utterance.pause = { pauseSample: voiceEnd, endSample: this.#detector.position };
  }

  /** The silence lasted `pauseSeconds`: a pause, not a moment's silence between words. */
  #isPause(pause: Pause): boolean {
    return pause.endSample - pause.pauseSample >= this.#tuning.pauseSeconds * sampleRate;
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
        this.#voiceSince(current.startSample) &&
        !this.#voiceSilent() &&
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
    kind: 'partial' | 'final' | 'flush',
    signal: AbortSignal = this.#abort.signal,
    context?: PhraseContext,
  ): Promise<{ words: TimedWord[]; language: string }> {
    const windowStart = context?.startSample ?? startSample;
    const samples = this.#audio.slice(windowStart, Math.min(endSample, this.#audio.endSample));
    const submitted = performance.now();
    // The context's text is the decoder's prefix, not also the end of its prompt.
    const contextText = context ? joinWords(context.words) : '';
    const previousText =
      context && this.#previousText.endsWith(contextText)
        ? this.#previousText.slice(0, -contextText.length).trim()
        : this.#previousText;
    const result = await recogniseWindow(
      this.#options.recogniser,
      {
        modelPath: this.#options.modelFor(this.#language).path,
        start: windowStart / sampleRate,
        samples,
        language: this.#language,
        prompt: this.#options.prompt,
        previousText,
        ...(context
          ? {
              prefix: {
                text: prefixWithoutStop(contextText),
                end: (context.endSample - windowStart) / sampleRate,
              },
            }
          : {}),
        signal,
        // A final is decoded as batch transcription decodes a window (beam per language,
        // temperature fallback, no token cap) unless other streams share the recogniser (then
        // greedy, see window-recognition.ts); a partial is one quick greedy pass. A flush is a
        // final without the beam: a beam costs 2.5 times a greedy pass.
        live: kind === 'partial' ? 'partial' : 'final',
      },
      kind === 'flush'
        ? { ...this.#options.decoding, beamSize: 1, beamSizeOtherLanguages: 1 }
        : this.#options.decoding,
    );
    this.#statistics.decodes += 1;
    this.#statistics.decodedSamples += samples.length;
    if (context) this.#statistics.contextSamples += Math.min(startSample - windowStart, samples.length);
    this.#statistics.recogniseMilliseconds += result.recogniseMilliseconds;
    this.#recogniserShared =
      performance.now() - submitted - result.recogniseMilliseconds > sharedRecogniserWaitMs;
    // Words placed at the very end of the audio were heard in the silent margin of the encoder's
    // context, not in the audio (whisper repeating the utterance there), as a segment of their own
    // or inside the utterance's segment.
    const audioEnd = (windowStart + samples.length) / sampleRate;
    const decoded = withoutSqueezedRepeat(
      result.segments.filter((segment) => segment.start < audioEnd - 0.05).flatMap(wordsOf),
      audioEnd,
    );
    const heard = context
      ? withoutRepeatedContext(context.words, continuedAfterPrefix(contextText, decoded))
      : decoded;
    const words = withoutRepeatedLead(this.#finalWords, heard);
    // Whisper sometimes ends the text right after a prefix: the phrase is decoded alone then.
    if (context && words.length === 0) return this.#recognise(startSample, endSample, kind, signal);
    return { words, language: result.language };
  }

  /**
   * A partial while the voice goes on; `ahead` at a pause: decoded as the final would be, kept on
   * the utterance to serve as its final, and shown as a partial meanwhile.
   */
  async #decodePartial(utterance: Utterance, kind: 'partial' | 'ahead'): Promise<void> {
    // A pause's decode ends in the silence after the voice (where the VAD last heard it silent).
    const pause = kind === 'ahead' ? utterance.pause : undefined;
    const endSample = pause ? Math.min(this.#audio.endSample, pause.endSample) : this.#audio.endSample;
    const decodedBefore = utterance.decodedUntil;
    utterance.decodedUntil = Math.max(decodedBefore, endSample);
    const cancel = new AbortController();
    const decode = { cancel, pause, utterance };
    this.#partialDecode = decode;
    let words: TimedWord[];
    try {
      let language: string;
      ({ words, language } = await this.#recognise(
        utterance.startSample,
        endSample,
        kind === 'partial' ? 'partial' : 'final',
        AbortSignal.any([this.#abort.signal, cancel.signal]),
        kind === 'ahead' ? utterance.context : undefined,
      ));
      if (pause) utterance.ahead = { pause, endSample, words, language };
    } catch (error) {
      const cancelled = cancel.signal.aborted && isSpeechError(error) && error.code === 'CANCELLED';
      if (cancelled || isPreempted(error)) {
        // Cancelled by `endOfInput`, a final of this stream (which decodes this audio next) or the
        // voice going on from a moment's silence; or gave way to another stream's final: the next
        // partial is due as if this one had not started.
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
    if (kind === 'ahead' && this.#finalAtPause(utterance)) return;
    // A pause the voice has gone on from: the partials already showed more than this decode heard.
    if (endSample < decodedBefore) return;
    this.#showPartial(this.#settle(utterance, words, endSample));
  }

  #showPartial(words: TimedWord[]): void {
    const text = joinText(this.#paragraph.text, joinWords(words));
    if (!text && !this.#partialShown) return;
    this.#partialShown = true;
    this.#options.onSegment({ type: 'partial', segment: this.#paragraph.id, text });
  }

  /**
   * The decode made at a pause becomes final before the endpoint: once the silence has lasted
   * `pauseFinalSilenceMs` with nothing said since, or, when the voice resumed meanwhile, once the
   * utterance held `commitPausesAfterSeconds` of audio before the pause. Its words are the final's
   * (nothing to decode: the person sees their sentence settle as soon as it is decoded), and the
   * utterance goes on from the pause: what follows is decoded after the final's last words and
   * their audio, the decoder continuing from them (`PhraseContext`). The endpoint rule still ends
   * the paragraph.
   */
  #finalAtPause(utterance: Utterance): boolean {
    const ahead = utterance.ahead;
    const language = ahead?.language ?? this.#language;
    if (!ahead || this.#current !== utterance || this.#finished || language === undefined) return false;
    if (ahead.words.length === 0) return false;
    const voiceEnd = this.#detector.openRegion?.speechEndSample ?? utterance.held?.voiceEndSample;
    if (voiceEnd === undefined) return false;
    const resumed = voiceEnd > ahead.endSample;
    const due = resumed
      ? this.#isPause(ahead.pause) && this.#commitsAt(utterance, ahead.pause.pauseSample)
      : this.#detector.position - voiceEnd >= this.#tuning.pauseFinalSilenceMs * 16;
    if (!due) return false;
    const nextStart = resumeSampleAfter(ahead);
    this.#commitWords(
      utterance,
      { words: ahead.words, language, from: 'pause' },
      ahead.pause.pauseSample,
      nextStart,
    );
    return true;
  }

  /**
   * Words of the utterance become a final of their own, with no decode, and the utterance goes on
   * from `nextStart` (the voice's start kept, for the endpoint rule).
   */
  #commitWords(
    utterance: Utterance,
    committed: NonNullable<PendingFinal['committed']>,
    voiceEndSample: number,
    nextStart: number,
  ): void {
    this.#finals.push(committedFinal(utterance, committed, voiceEndSample, nextStart));
    // Held: the silence was already long enough to end a sentence (see #endRegion).
    const next = this.#newUtterance(
      nextStart,
      utterance.voiceStartSample,
      utterance.held ? undefined : this.#phraseContext(utterance, committed, voiceEndSample),
    );
    next.held = utterance.held;
    this.#current = next;
    this.#lastUtteranceEnd = nextStart;
    this.#cancelPartial();
  }

  /**
   * Stop (`Done`) while the person watches the sentence as partials: the words the partials
   * settled become final at once, as shown, and only the audio after them is decoded for the last
   * final, in one greedy pass. The person waits for the sentence's last words, not for its whole
   * length decoded again with a beam: bench:live's Stop pass, end of voice → last final, p50
   * 0.82 → 0.56 s, p95 2.39 → 0.97 s, for those sentences' WER 18.4 → 20.8%. Not when a decode
   * made at a pause already heard the voice to its end: that one is the final, nothing to wait for.
   */
  #commitSettled(utterance: Utterance, endSample: number): void {
    const last = utterance.settled.at(-1);
    const language = this.#language;
    if (!last || language === undefined) return;
    if (utterance.ahead && utterance.ahead.endSample >= endSample) return;
    const settledEnd = Math.round(last.end * sampleRate);
    const nextStart = Math.max(utterance.startSample, settledEnd - resumeLeadSeconds * sampleRate);
    if (nextStart <= utterance.startSample || nextStart >= endSample) return;
    this.#commitWords(
      utterance,
      { words: utterance.settled, language, from: 'settled' },
      settledEnd,
      nextStart,
    );
  }

  /**
   * The voice has gone quiet (the VAD's last frames are silence): a partial now would hear no new
   * word, and would hold back the decode due at a silence `aheadDecodeSeconds` in.
   */
  #voiceSilent(): boolean {
    const open = this.#detector.openRegion;
    return open !== undefined && open.speechEndSample < this.#detector.position;
  }

  /** The voice was heard after `sample` in the open speech region. */
  #voiceSince(sample: number): boolean {
    return (this.#detector.openRegion?.speechEndSample ?? 0) > sample;
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

  async #decodeFinal(due: PendingFinal): Promise<void> {
    const pending = this.#splitAtDecodedPause(due);
    const { utterance } = pending;
    // Decoded at the pause with every word of the utterance, and only silence since: that is the final.
    const ahead =
      utterance.ahead && utterance.ahead.endSample >= pending.voiceEndSample ? utterance.ahead : undefined;
    if (pending.committed?.from === 'pause') this.#statistics.finalsCommittedAtPauses += 1;
    else if (pending.committed) this.#statistics.finalsFromSettledWords += 1;
    else if (ahead) this.#statistics.finalsDecodedAhead += 1;
    // After a final at a pause, the utterance may end with no voice of its own: nothing to decode.
    const silent = pending.voiceEndSample <= utterance.startSample;
    const { words, language } =
      pending.committed ??
      ahead ??
      (silent
        ? { words: [], language: this.#language ?? '' }
        : await this.#recognise(
            utterance.startSample,
            pending.endSample,
            pending.greedy ? 'flush' : 'final',
            this.#abort.signal,
            utterance.context,
          ));
    if (this.#abort.signal.aborted) return;
    if (this.#language === undefined && words.length > 0) this.#language = language;
    // The final's own words, not the settled ones: a final decoded with a beam is more accurate
    // than the greedy words partials agreed on.
    const text = joinWords(words);
    if (text) {
      this.#finalWords = words;
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
  }

  /**
   * The utterance ended while (or after) a decode made at an earlier pause of it ran, and the voice
   * went on after that pause: the pause's words become a final of their own, as they would have
   * had the decode finished before the voice resumed (`commitPausesAfterSeconds`), and only the
   * audio after the pause is decoded for the rest. Otherwise the end of a long sentence waited for
   * all of it to be decoded again. Returns the final to make now; the rest waits first in line.
   */
  #splitAtDecodedPause(pending: PendingFinal): PendingFinal {
    const { utterance } = pending;
    const ahead = utterance.ahead;
    const language = ahead?.language ?? this.#language;
    if (!ahead || pending.committed || language === undefined || ahead.words.length === 0) return pending;
    if (ahead.endSample >= pending.voiceEndSample) return pending;
    if (!this.#isPause(ahead.pause) || !this.#longEnoughToCommit(utterance, ahead.pause.pauseSample))
      return pending;
    const nextStart = resumeSampleAfter(ahead);
    if (nextStart >= pending.endSample) return pending;
    const committed = { words: ahead.words, language, from: 'pause' } as const;
    this.#finals.unshift({
      ...pending,
      utterance: this.#newUtterance(
        nextStart,
        utterance.voiceStartSample,
        this.#phraseContext(utterance, committed, ahead.pause.pauseSample),
      ),
    });
    return committedFinal(utterance, committed, ahead.pause.pauseSample, nextStart);
  }

  /**
   * The context of the phrase after words that became final at a pause: the last of them and the
   * audio they were heard in. Not after words the partials settled (Stop: the rest is wanted at once).
   */
  #phraseContext(
    utterance: Utterance,
    committed: NonNullable<PendingFinal['committed']>,
    voiceEndSample: number,
  ): PhraseContext | undefined {
    const seconds = this.#tuning.phraseContextSeconds;
    if (committed.from !== 'pause' || seconds <= 0) return undefined;
    const from = committed.words.findIndex((word) => word.start >= voiceEndSample / sampleRate - seconds);
    const words = committed.words.slice(Math.max(0, from));
    const first = words[0];
    if (from < 0 || !first) return undefined;
    // From just before its first word (word times are estimates), never before the phrase.
    const startSample = Math.max(utterance.startSample, Math.round((first.start - 0.05) * sampleRate));
    return startSample < voiceEndSample ? { startSample, endSample: voiceEndSample, words } : undefined;
  }
}

/** A final of words already decoded, up to `endSample`, where the rest of the utterance starts. */
function committedFinal(
  utterance: Utterance,
  committed: NonNullable<PendingFinal['committed']>,
  voiceEndSample: number,
  endSample: number,
): PendingFinal {
  return {
    utterance: { ...utterance, settled: committed.words, ahead: undefined },
    endSample,
    voiceEndSample,
    endpoint: false,
    committed,
  };
}

/**
 * Where the words after a pause's decode are decoded from: the pause's silence (which may have
 * gone on after the decode began, `aheadDecodeSeconds` into it) holds no word, so from its last
 * tenth of a second, not from where the VAD heard the voice fade, which may be inside a last sound.
 */
function resumeSampleAfter(ahead: Ahead): number {
  const { pauseSample, endSample } = ahead.pause;
  return Math.max(pauseSample, endSample - resumeLeadSeconds * sampleRate);
}

/** The first sample a final of the utterance decodes (its phrase context's, if any). */
function decodeStart(utterance: Utterance | undefined): number {
  return utterance?.context?.startSample ?? utterance?.startSample ?? Infinity;
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
