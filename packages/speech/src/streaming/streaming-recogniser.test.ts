import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SpeechEngine } from '../engine/speech-engine.js';
import { RecogniserPool, recognitionPriority } from '../recogniser/recogniser-pool.js';
import { SileroVad } from '../vad/silero-vad.js';
import { ENDPOINT_SILENCE_MS, SpeechDetector } from '../vad/speech-detector.js';
import { decodedRecording, readManifest, testdataFile, wordErrorRate } from '../test-support/index.js';
import { startTestEngine } from '../test-support/test-engine.js';
import type {
  StreamingRecogniser,
  StreamingSegment,
  StreamingStatistics,
  StreamingTuning,
} from './streaming-recogniser.js';

function decoded(relativePath: string): Promise<Float32Array> {
  return decodedRecording(testdataFile(relativePath));
}

/** Two dev-set recordings one after the other, `pauseSeconds` apart, and their reference text. */
async function twoRecordings(
  firstPath: string,
  secondPath: string,
  pauseSeconds: number,
): Promise<{ samples: Float32Array; reference: string }> {
  const first = readManifest().find((row) => row.path === firstPath);
  const second = readManifest().find((row) => row.path === secondPath);
  if (!first || !second) throw new Error(`${firstPath} or ${secondPath} missing from the manifest`);
  const [a, b] = [await decoded(first.path), await decoded(second.path)];
  const samples = new Float32Array(a.length + 16_000 * pauseSeconds + b.length);
  samples.set(a, 0);
  samples.set(b, a.length + 16_000 * pauseSeconds);
  return { samples, reference: `${first.referenceText} ${second.referenceText}` };
}

/** Where the voice starts and ends (samples, no padding), as the live VAD hears it. */
async function voiceOf(samples: Float32Array): Promise<{ start: number; end: number }> {
  const vad = await SileroVad.load();
  try {
    const stream = vad.createStream();
    const detector = new SpeechDetector({ minSilenceMs: ENDPOINT_SILENCE_MS, speechPadMs: 200 });
    const regions = detector.push(await stream.probabilities(samples));
    regions.push(...detector.flush(samples.length, await stream.flush()));
    return {
      start: regions[0]?.speechStartSample ?? 0,
      end: regions.at(-1)?.speechEndSample ?? samples.length,
    };
  } finally {
    await vad.close();
  }
}

/** Where the voice ends (sample), as the live VAD hears it. */
async function speechEndOf(samples: Float32Array): Promise<number> {
  return (await voiceOf(samples)).end;
}

/** What a client shows: a message with the last id replaces it, a new id appends. */
function displayed(messages: StreamingSegment[]): string[] {
  const lines: { id: number; text: string }[] = [];
  for (const message of messages) {
    const last = lines[lines.length - 1];
    if (last && last.id === message.segment) last.text = message.text;
    else lines.push({ id: message.segment, text: message.text });
  }
  return lines.map((line) => line.text);
}

describe('StreamingRecogniser (real models, real speech)', { timeout: 180_000 }, () => {
  let engine: SpeechEngine;

  beforeAll(async () => {
    engine = await startTestEngine({ modelByLanguage: { en: 'tiny.en-q8_0' }, threadsPerWorker: 1 });
    // Loads the English model in the recogniser thread, so that the first test does not wait for it.
    const warmUp = engine.openStream({ language: 'en', onSegment: () => undefined });
    await warmUp.push(await decoded('en/ls-dev-clean-3752-4944-0000.flac'));
    await warmUp.finish();
  }, 60_000);

  afterAll(async () => {
    await engine.close();
  });

  async function stream(
    samples: Float32Array,
    options: {
      endpoints?: boolean;
      chunk?: number;
      language?: string;
      realTime?: boolean;
      tuning?: Partial<StreamingTuning>;
      /** The client says at once that its audio is complete (then sends it all). */
      endOfInput?: boolean;
    } = {},
  ): Promise<{ messages: StreamingSegment[]; decodes: number; statistics: StreamingStatistics }> {
    const messages: StreamingSegment[] = [];
    const recogniser = engine.openStream({
      language: options.language ?? 'en',
      endpoints: options.endpoints ?? true,
      onSegment: (segment) => messages.push(segment),
      ...(options.tuning ? { tuning: options.tuning } : {}),
    });
    if (options.endOfInput) recogniser.endOfInput();
    const chunk = options.chunk ?? 2048;
    const started = performance.now();
    for (let at = 0; at < samples.length; at += chunk) {
      await recogniser.push(samples.subarray(at, at + chunk));
      // As a microphone delivers it: no sooner than it is spoken.
      const due = (at + chunk) / 16 - (performance.now() - started);
      if (options.realTime && due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
    await recogniser.finish();
    const { statistics } = recogniser;
    return { messages, decodes: statistics.decodes, statistics };
  }

  it('sends partials, then finals whose text matches the reference; ids follow the replace/append rule', async () => {
    // 11.7 s of continuous reading: several partials before the pause at its end.
    const entry = readManifest().find((row) => row.path === 'en/ls-dev-clean-2412-153948-0000.flac');
    if (!entry) throw new Error('ls-dev-clean-2412-153948-0000.flac missing from the manifest');
    const { messages } = await stream(await decoded(entry.path), { realTime: true });
    expect(messages.some((message) => message.type === 'partial')).toBe(true);
    // The first message of each segment is a partial, and its last message is a final.
    const ids = [...new Set(messages.map((message) => message.segment))];
    expect(ids).toEqual(ids.map((_, index) => ids[0]! + index));
    for (const id of ids) {
      const ofId = messages.filter((message) => message.segment === id);
      expect(ofId.at(-1)?.type).toBe('final');
    }
    const text = displayed(messages).join('\n');
    expect(wordErrorRate(entry.referenceText, text, 'en').wer).toBeLessThan(0.1);
  });

  it('a long sentence without a pause is cut at its quietest moment: its head becomes final first, the rest follows it', async () => {
    // 11.7 s of reading, longer than `maxUtteranceSeconds`; its short pauses end nothing here.
    // At a microphone's pace: sent faster, the last 4 s could all arrive while a decode made at a
    // moment's silence runs (a cut waits for it), and the sentence is then decoded whole at its end.
    const entry = readManifest().find((row) => row.path === 'en/ls-dev-clean-2412-153948-0000.flac');
    if (!entry) throw new Error('ls-dev-clean-2412-153948-0000.flac missing from the manifest');
    const { messages } = await stream(await decoded(entry.path), {
      realTime: true,
      tuning: { endpointSilenceMs: 5000, shortUtteranceSilenceMs: 5000, pauseFinalSilenceMs: 5000 },
    });
    const finals = messages.filter((message) => message.type === 'final');
    expect(finals.length).toBeGreaterThanOrEqual(2);
    expect(new Set(finals.map((final) => final.segment)).size).toBe(1);
    for (const [index, final] of finals.entries()) {
      const next = finals[index + 1];
      if (next) expect(next.text.startsWith(final.text)).toBe(true);
    }
    // The head is a part of the sentence; the last final is all of it.
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    expect(words(finals[0]!.text)).toBeLessThan(words(entry.referenceText) - 3);
    expect(wordErrorRate(entry.referenceText, finals.at(-1)!.text, 'en').wer).toBeLessThan(0.1);
  });

  it('words decoded at a short pause become final at once; the rest of the sentence is decoded from the pause', async () => {
    // A 0.3 s pause, shorter than an endpoint: one utterance, whose first sentence settles first.
    const { samples, reference } = await twoRecordings(
      'en/ls-dev-clean-2412-153948-0000.flac',
      'en/ls-dev-clean-3752-4944-0000.flac',
      0.3,
    );
    const { messages, statistics } = await stream(samples, {
      realTime: true,
      tuning: { commitPausesAfterSeconds: 3 },
    });
    expect(statistics.finalsCommittedAtPauses).toBeGreaterThanOrEqual(1);
    // Committed words are final before the utterance ends, and stay the beginning of its text.
    const finals = messages.filter((message) => message.type === 'final');
    expect(finals.length).toBeGreaterThanOrEqual(2);
    for (const [index, final] of finals.entries()) {
      const next = finals[index + 1];
      if (next && next.segment === final.segment) expect(next.text.startsWith(final.text)).toBe(true);
    }
    expect(wordErrorRate(reference, displayed(messages).join(' '), 'en').wer).toBeLessThan(0.1);
    // Decoded whole when the silence is too short to be a pause (here, shorter than 1 s): the
    // decode begun in it is not final, and the first sentence is decoded again at every partial
    // after it (as the engine decodes tiny models' utterances, which commit at no pause).
    const whole = await stream(samples, {
      realTime: true,
      tuning: { commitPausesAfterSeconds: 3, pauseSeconds: 1, pauseFinalSilenceMs: 5000 },
    });
    expect(whole.statistics.finalsCommittedAtPauses).toBe(0);
    expect(statistics.decodedSamples).toBeLessThan(whole.statistics.decodedSamples);
  });

  it('the phrase after words final at a pause is decoded after their audio, continuing from them without saying them again', async () => {
    const { samples, reference } = await twoRecordings(
      'en/ls-dev-clean-3752-4944-0000.flac',
      'en/ls-dev-clean-2412-153948-0001.flac',
      0.3,
    );
    const run = (phraseContextSeconds: number) =>
      stream(samples, { realTime: true, tuning: { commitPausesAfterSeconds: 3, phraseContextSeconds } });
    const [withContext, alone] = [await run(3), await run(0)];
    for (const { messages, statistics } of [withContext, alone]) {
      expect(statistics.finalsCommittedAtPauses).toBeGreaterThanOrEqual(1);
      expect(wordErrorRate(reference, displayed(messages).join(' '), 'en').wer).toBeLessThan(0.1);
    }
    // The words before the pause were decoded again (as the decoder's prefix), and not repeated.
    // (Not told by the total decoded: how many partials run depends on the machine's speed; under
    // CI's load the run with context decoded 0.9 M samples in all, the one without 1.1 M.)
    expect(withContext.statistics.contextSamples).toBeGreaterThan(16_000);
    expect(alone.statistics.contextSamples).toBe(0);
    const words =
      displayed(withContext.messages)
        .join(' ')
        .toLowerCase()
        .match(/[\p{L}']+/gu) ?? [];
    const referenceWords = reference.toLowerCase().match(/[\p{L}']+/gu) ?? [];
    expect(Math.abs(words.length - referenceWords.length)).toBeLessThanOrEqual(2);
  });

  /**
   * Two French sentences 0.45 s apart and the silence that ends them, streamed in real time up to
   * the end of the pause, so that its decode (base, a beam, one thread: over a second) has
   * started; then the rest at once, as a client catching up sends it: the utterance ends (or is
   * cut, `cutAfterPause`) while the pause's decode still runs.
   */
  async function pauseDecodedAsUtteranceEnds(cutAfterPause: boolean): Promise<void> {
    const first = readManifest().find((row) => row.path === 'fr/fleurs-fr-000.ogg');
    const second = readManifest().find((row) => row.path === 'fr/cv-fr-20046123.mp3');
    if (!first || !second) throw new Error('dev-set recordings missing from the manifest');
    const [a, b] = [await decoded(first.path), await decoded(second.path)];
    const voiceEnd = await speechEndOf(a);
    const resume = voiceEnd + 16_000 * 0.45;
    const samples = new Float32Array(resume + b.length + 16_000 * 1.5);
    samples.set(a.subarray(0, voiceEnd), 0);
    samples.set(b, resume);
    const messages: StreamingSegment[] = [];
    // The first sentence's own comma pause (at 4.8 s) does not commit its words: only this pause
    // does. No cut of a long utterance comes first; with `cutAfterPause` one is due as soon as the
    // rest arrives (the utterance starts 2 s in, after the clip's silence), long before the pause's
    // decode is done.
    const recogniser = engine.openStream({
      language: 'fr',
      tuning: {
        commitPausesAfterSeconds: 6,
        maxUtteranceSeconds: cutAfterPause ? resume / 16_000 + 0.5 : 20,
      },
      onSegment: (segment) => messages.push(segment),
    });
    const started = performance.now();
    for (let at = 0; at < resume; at += 2048) {
      await recogniser.push(samples.subarray(at, Math.min(resume, at + 2048)));
      const due = Math.min(resume, at + 2048) / 16 - (performance.now() - started);
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
    await recogniser.push(samples.subarray(resume));
    await recogniser.finish();
    expect(recogniser.statistics.finalsCommittedAtPauses).toBe(1);
    const finals = messages.filter((message) => message.type === 'final');
    expect(finals).toHaveLength(2);
    expect(finals[1]!.text.startsWith(finals[0]!.text)).toBe(true);
    // Both sentences, every word: the second decoded from the pause, with the first as its prompt.
    expect(finals[1]!.text.toLowerCase()).toMatch(/terrain montagneux/);
    const reference = `${first.referenceText} ${second.referenceText}`;
    expect(wordErrorRate(reference, finals[1]!.text, 'fr').wer).toBeLessThanOrEqual(0.35);
    const batch = await engine.transcribeFile(second.absolutePath, { language: 'fr' });
    const lastWord = (text: string) =>
      text
        .toLowerCase()
        .match(/[\p{L}']+/gu)
        ?.at(-1);
    expect(lastWord(finals[1]!.text)).toBe(lastWord(batch.segments.map((segment) => segment.text).join(' ')));
  }

  it('a sentence that ends while its pause is being decoded: the words before the pause become final, only the rest is decoded', async () => {
    await pauseDecodedAsUtteranceEnds(false);
  });

  it('an utterance too long while its pause is being decoded waits for that decode to commit its words, not cut and decoded again', async () => {
    await pauseDecodedAsUtteranceEnds(true);
  });

  it('keeps the first words of a stream that starts in the middle of speech, which Silero hears late', async () => {
    const entry = readManifest().find((row) => row.path === 'fr/fleurs-fr-000.ogg');
    if (!entry) throw new Error('fr/fleurs-fr-000.ogg missing from the manifest');
    const speech = await decoded(entry.path);
    // From the voice's first sound: a fresh VAD state takes more than a second to call it speech.
    const voice = await voiceOf(speech);
    const samples = speech.subarray(voice.start);
    const { messages } = await stream(samples, { language: 'fr', chunk: 8000, endOfInput: true });
    const text = displayed(messages).join(' ');
    // "L'accident", or its first sound heard as a word of its own ("Les accidents").
    expect(text.toLowerCase()).toMatch(/^\W*(?:\S+ |l')accidents? a eu lieu en terrain/);
    expect(wordErrorRate(entry.referenceText, text, 'fr').wer).toBeLessThanOrEqual(0.35);
  });

  it('silence costs no decoding; without endpoints pauses keep one paragraph', async () => {
    const speech = await decoded('en/ls-dev-clean-3752-4944-0000.flac');
    const silence = new Float32Array(16_000 * 3);
    const { decodes: silentDecodes, messages: silentMessages } = await stream(silence);
    expect(silentDecodes).toBe(0);
    expect(silentMessages).toEqual([]);

    const twice = new Float32Array(speech.length * 2 + silence.length);
    twice.set(speech, 0);
    twice.set(silence, speech.length);
    twice.set(speech, speech.length + silence.length);
    const withEndpoints = await stream(twice, { endpoints: true });
    expect(displayed(withEndpoints.messages)).toHaveLength(2);
    const without = await stream(twice, { endpoints: false });
    const lines = displayed(without.messages);
    expect(lines).toHaveLength(1);
    // The name (Frere) is spelled in several ways: 3 errors of 16 words at most.
    expect(
      wordErrorRate('CAPTAIN FRERE SAYS THAT THE SCENERY IS DELIGHTFUL '.repeat(2), lines[0]!, 'en').wer,
    ).toBeLessThanOrEqual(0.1875);
    expect(lines[0]!.toLowerCase().match(/scenery is delightful/g)).toHaveLength(2);
    // Each utterance was final before the next began: two finals, the second containing both.
    expect(without.messages.filter((message) => message.type === 'final')).toHaveLength(2);
  });

  it('a pause ends a short utterance only once it is long: the sentence is decoded whole', async () => {
    const speech = await decoded('en/ls-dev-clean-3752-4944-0000.flac');
    const withPause = (seconds: number) => {
      const samples = new Float32Array(speech.length * 2 + 16_000 * seconds);
      samples.set(speech, 0);
      samples.set(speech, speech.length + 16_000 * seconds);
      return samples;
    };
    // Both halves count as short: a 0.7 s pause (an endpoint for a long utterance) keeps them
    // together (no final at the pause either, for this test of the endpoint rule alone).
    const tuning = {
      minEndpointUtteranceSeconds: 30,
      shortUtteranceSilenceMs: 2500,
      pauseFinalSilenceMs: 5000,
    };
    const together = await stream(withPause(0.7), { tuning });
    expect(together.messages.filter((message) => message.type === 'final')).toHaveLength(1);
    expect(displayed(together.messages)).toHaveLength(1);
    // A pause as long as `shortUtteranceSilenceMs` ends it.
    const apart = await stream(withPause(4), { tuning });
    expect(apart.messages.filter((message) => message.type === 'final')).toHaveLength(2);
    expect(displayed(apart.messages)).toHaveLength(2);
    // Long enough utterances end at the short pause.
    const long = await stream(withPause(0.7), { tuning: { minEndpointUtteranceSeconds: 1 } });
    expect(displayed(long.messages).length).toBeGreaterThanOrEqual(2);
  });

  it('decodes at a pause as a final would: when silence follows, that decode is the final, before the endpoint, with every word', async () => {
    const speech = await decoded('en/ls-dev-clean-3752-4944-0000.flac');
    const voiceEnd = await speechEndOf(speech);
    const samples = new Float32Array(speech.length + 16_000 * 5);
    samples.set(speech, 0);
    const finals: { decodes: number; text: string; samples: number }[] = [];
    // 4 s of silence end this (short) utterance here, whatever the load on the machine: the final
    // must not wait for them.
    const recogniser: StreamingRecogniser = engine.openStream({
      language: 'en',
      tuning: { shortUtteranceSilenceMs: 4000 },
      onSegment: (segment) => {
        if (segment.type === 'final')
          finals.push({
            decodes: recogniser.statistics.decodes,
            text: segment.text,
            samples: recogniser.statistics.samples,
          });
      },
    });
    const started = performance.now();
    for (let at = 0; at < samples.length; at += 2048) {
      await recogniser.push(samples.subarray(at, at + 2048));
      const due = (at + 2048) / 16 - (performance.now() - started);
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
    // One final, the pause's decode (no decode after it), sent before the endpoint.
    expect(finals).toHaveLength(1);
    expect(recogniser.statistics.finalsCommittedAtPauses).toBe(1);
    expect(recogniser.statistics.decodes).toBe(finals[0]!.decodes);
    expect(finals[0]!.samples - voiceEnd).toBeLessThan(4 * 16_000);
    // It covers the whole utterance, up to its last word.
    expect(
      wordErrorRate('CAPTAIN FRERE SAYS THAT THE SCENERY IS DELIGHTFUL', finals[0]!.text, 'en').wer,
    ).toBeLessThanOrEqual(0.25);
    expect(finals[0]!.text.toLowerCase()).toMatch(/delightful\W*$/);
    await recogniser.finish();
    expect(finals).toHaveLength(1);
  });

  it.each([
    // French's 12 s sentence ends with words the partials settled, which become final at Done as
    // they were shown. English's last phrase follows a pause: 3.5 s, whose words settle, or not,
    // depending on how many partials the machine made of it. The last column: how much less
    // accurate than batch (WER) the final may be. Batch decodes with a beam of 5; the final made at
    // Done is greedy words: those the partials settled and the rest decoded alone. How many settle,
    // and where the rest starts, depends on the machine's speed: 8 to 9 errors here, 13 once on a
    // slower machine (batch: 9 of 26 words), the cost bench:live's Stop pass measures for the
    // latency it buys.
    ['en', 'en/ls-dev-clean-2412-153948-0000.flac', undefined, 0.1],
    ['fr', 'fr/fleurs-fr-002.ogg', 1, 0.2],
  ])(
    '%s: Done right after the last word flushes every word to a final (%s)',
    async (language, relativePath, finalsFromSettledWords, werAboveBatch) => {
      const entry = readManifest().find((row) => row.path === relativePath);
      if (!entry) throw new Error(`${relativePath} missing from the manifest`);
      const speech = await decoded(entry.path);
      // Stop pressed 50 ms after the voice ends: the client sends what it has, then Done.
      const end = Math.min(speech.length, (await speechEndOf(speech)) + 800);
      const messages: StreamingSegment[] = [];
      const recogniser = engine.openStream({ language, onSegment: (segment) => messages.push(segment) });
      const started = performance.now();
      for (let at = 0; at < end; at += 2048) {
        await recogniser.push(speech.subarray(at, Math.min(end, at + 2048)));
        const due = Math.min(end, at + 2048) / 16 - (performance.now() - started);
        if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      }
      recogniser.endOfInput();
      await recogniser.finish();
      const finalText = displayed(messages.filter((message) => message.type === 'final')).join(' ');
      const batch = await engine.transcribeFile(entry.absolutePath, { language });
      const batchText = batch.segments.map((segment) => segment.text).join(' ');
      // Every word reached a final: as accurate as batch transcription of the whole clip, last word included.
      const live = wordErrorRate(entry.referenceText, finalText, language);
      const batchScore = wordErrorRate(entry.referenceText, batchText, language);
      expect(live.deletions).toBeLessThanOrEqual(batchScore.deletions + 1);
      expect(live.wer).toBeLessThanOrEqual(batchScore.wer + werAboveBatch);
      const lastWord = (text: string) =>
        text
          .toLowerCase()
          .replace(/[^\p{L}\s]/gu, ' ')
          .trim()
          .split(/\s+/)
          .at(-1);
      expect(lastWord(finalText)).toBe(lastWord(batchText));
      // Nothing after the last final, and no partial after Done contradicts it.
      expect(messages.at(-1)?.type).toBe('final');
      // The words the partials had settled became final as they were; only the rest was decoded.
      if (finalsFromSettledWords !== undefined)
        expect(recogniser.statistics.finalsFromSettledWords).toBe(finalsFromSettledWords);
    },
  );

  it('decodes an English final with the beam, as batch decodes; partials stay one greedy pass', async () => {
    // Greedy, live English finals made twice batch's errors (bench:live, bench/RESULTS.md).
    const recognise = vi.spyOn(RecogniserPool.prototype, 'recognise');
    try {
      const speech = await decoded('en/ls-dev-clean-3752-4944-0000.flac');
      const samples = new Float32Array(speech.length + 24_000);
      samples.set(speech);
      const { messages } = await stream(samples, { realTime: true });
      expect(messages.filter((message) => message.type === 'final')).toHaveLength(1);
      const beamsOf = (priority: number) =>
        recognise.mock.calls
          .map(([request]) => request)
          .filter((request) => (request.priority ?? recognitionPriority.batch) === priority)
          .map((request) => request.options.beamSize);
      expect(beamsOf(recognitionPriority.liveFinal).length).toBeGreaterThan(0);
      expect(new Set(beamsOf(recognitionPriority.liveFinal))).toEqual(new Set([5]));
      expect(new Set(beamsOf(recognitionPriority.livePartial))).toEqual(new Set([1]));
    } finally {
      recognise.mockRestore();
    }
  });

  it('after endOfInput only finals are decoded: audio sent faster than real time gets its final text', async () => {
    const entry = readManifest().find((row) => row.path === 'en/ls-dev-clean-2412-153948-0000.flac');
    if (!entry) throw new Error('ls-dev-clean-2412-153948-0000.flac missing from the manifest');
    const { messages, decodes } = await stream(await decoded(entry.path), { chunk: 8000, endOfInput: true });
    expect(messages.every((message) => message.type === 'final')).toBe(true);
    expect(decodes).toBe(messages.length);
    expect(wordErrorRate(entry.referenceText, displayed(messages).join('\n'), 'en').wer).toBeLessThan(0.1);
  });
});
