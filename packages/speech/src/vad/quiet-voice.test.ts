import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatSamples, decodedRecording, testdataFile } from '../test-support/index.js';
import { createMediaScratch, type MediaScratch } from '../test-support/media-fixtures.js';
import { startTestEngine } from '../test-support/test-engine.js';
import { normaliseForScoring } from '../test-support/wer.js';

// "Zieht euch bitte draußen die Schuhe aus." (peak 0.54), a second of silence, then "Otto wollte
// sich nicht streiten und gab nach." recorded 30 dB quieter (peak 0.013): Silero alone, its state
// set by the louder voice, heard no speech in the second sentence, and it was lost.
describe('a quiet voice after a loud one', { timeout: 180_000 }, () => {
  let scratch: MediaScratch;
  let recordingPath: string;

  beforeAll(async () => {
    scratch = createMediaScratch('verbatim-quiet-voice-');
    const loud = await decodedRecording(testdataFile('de/cv-de-17922420.mp3'));
    const quiet = await decodedRecording(testdataFile('de/cv-de-18982556.mp3'));
    const samples = concatSamples([loud, new Float32Array(16_000), quiet]);
    recordingPath = scratch.write('loud-then-quiet.f32', new Uint8Array(samples.buffer));
  });

  afterAll(() => scratch.dispose());

  it('is transcribed', async () => {
    const engine = await startTestEngine();
    try {
      const transcript = await engine.transcribeFile(recordingPath, {
        language: 'de',
        rawPcm: { encoding: 'f32le', sampleRate: 16_000, channels: 1 },
      });
      const text = transcript.segments.map((segment) => segment.text).join(' ');
      const words = normaliseForScoring(text, 'de');
      expect(words, text).toContain('schuhe');
      // Whisper hears the quiet sentence roughly ("… wollte ich mich scheitern …"), but hears it.
      expect(words, text).toContain('wollte');
      expect(transcript.segments.at(-1)?.end ?? 0).toBeGreaterThan(5.5);
    } finally {
      await engine.close();
    }
  });
});
