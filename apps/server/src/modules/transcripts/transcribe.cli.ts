import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkRawAudioOptions, rawAudioQueryFields, rawPcmFormatOf } from '@verbatim/contracts';
import {
  formatTranscript,
  isSpeechError,
  listInstalledModels,
  notAudioMessage,
  transcriptFormats,
  type RawPcmFormat,
  type SpeechEngine,
  type SpeechError,
  type Transcript,
  type TranscriptFormat,
} from '@verbatim/speech';
import { MultiBar } from 'cli-progress';
import { z } from 'zod';
import { pino, type Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { pooled } from '../../lib/pooled.js';
import { startSpeechEngine } from './speech-engine.js';

export const transcribeUsage = `  transcribe <file>...        transcribe recordings on this machine (no server, no account):
    --language CODE           en, fr, … fr-medical, or auto (default: detected per file)
    --format FORMAT           text (default), json, srt or vtt
    --model NAME              this installed model for every file (see models list)
    --prompt TEXT             names or jargon that help the recogniser
    --encoding s16le|f32le    the files are headerless PCM (raw samples, no WAV header) in this
                              format; with --sample-rate HZ (8000-192000) and --channels N
                              (default 1, mixed down)
    --out DIR                 writes DIR/<name>.<txt|json|srt|vtt>; without it one file goes
                              to stdout, several to the current folder`;

/** A command line that cannot be run as written: exit code 64. */
export class TranscribeUsageError extends Error {}

export interface TranscribeRequest {
  /** As typed; resolved against the working directory. */
  files: string[];
  /** Undefined: detect the language of each file. */
  language: string | undefined;
  format: TranscriptFormat;
  /** A model name forced for every file; undefined: the configured choice per language. */
  model: string | undefined;
  prompt: string | undefined;
  /** Every file is headerless PCM in this format; undefined: files with a header. */
  rawPcm: RawPcmFormat | undefined;
  /** Undefined with one file: the transcript goes to stdout. */
  outDir: string | undefined;
}

export interface TranscribeCliIo {
  /** Receives the transcript itself when there is one file and no --out, and nothing else. */
  stdout: NodeJS.WritableStream;
  /** Progress and messages; a terminal gets a live bar, anything else a line per file. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Aborting it (Ctrl-C) stops the file being transcribed and skips the rest. */
  signal?: AbortSignal;
  /** Relative files and the default output folder resolve from here; default process.cwd(). */
  cwd?: string;
  logger: Logger;
}

export type TranscribeSpeechConfig = Config['speech'];

/** The process exit codes the command ends with (64, a usage error, is thrown instead). */
export const transcribeExitCodes = { ok: 0, failed: 1, interrupted: 130 } as const;

/**
 * The engine's start-up log is for servers; a person at a terminal gets this command's own
 * messages. It is kept (on stderr, never stdout) only when LOG_LEVEL asks for debugging.
 */
export function transcribeLogger(level: Config['logLevel']): Logger {
  const debugging = level === 'debug' || level === 'trace';
  return pino({ level: debugging ? level : 'silent' }, process.stderr);
}

/** Reads the command line (`help` for --help); throws TranscribeUsageError for anything that cannot be run. */
export function parseTranscribeArgs(args: string[]): TranscribeRequest | 'help' {
  let parsed: ReturnType<typeof parseTranscribeOptions>;
  try {
    parsed = parseTranscribeOptions(args);
  } catch (error) {
    // node:util's messages already name the flag ("Unknown option '--lang'"); keep them.
    throw new TranscribeUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length === 0) throw new TranscribeUsageError('transcribe needs at least one file');
  const format = values.format ?? 'text';
  if (!isTranscriptFormat(format))
    throw new TranscribeUsageError(`unknown format "${format}": use one of ${transcriptFormats.join(', ')}`);
  const language = values.language?.trim().toLowerCase();
  if (language === '') throw new TranscribeUsageError('--language needs a value');
  const model = values.model?.trim();
  if (model === '') throw new TranscribeUsageError('--model needs a value');
  if (values.out?.trim() === '') throw new TranscribeUsageError('--out needs a folder');
  const rawPcm = parseRawPcmFormat(values.encoding, values['sample-rate'], values.channels);
  return {
    files: positionals,
    language: language === 'auto' ? undefined : language,
    format,
    model,
    prompt: values.prompt?.trim() || undefined,
    rawPcm,
    outDir: values.out,
  };
}

/** The API's schema of headerless PCM, its messages in the command's flag names. */
const rawAudioArgsSchema = z.object(rawAudioQueryFields).superRefine(checkRawAudioOptions);
const flagNames: Record<string, string> = {
  encoding: '--encoding',
  sampleRate: '--sample-rate',
  channels: '--channels',
};

function parseRawPcmFormat(
  encoding: string | undefined,
  sampleRate: string | undefined,
  channels: string | undefined,
): RawPcmFormat | undefined {
  const parsed = rawAudioArgsSchema.safeParse({ encoding, sampleRate, channels });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'invalid headerless PCM options';
    throw new TranscribeUsageError(
      message.replace(/\b(encoding|sampleRate|channels)\b/g, (name) => flagNames[name] ?? name),
    );
  }
  return rawPcmFormatOf(parsed.data);
}

function parseTranscribeOptions(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      language: { type: 'string', short: 'l' },
      format: { type: 'string', short: 'f' },
      model: { type: 'string', short: 'm' },
      prompt: { type: 'string' },
      encoding: { type: 'string' },
      'sample-rate': { type: 'string' },
      channels: { type: 'string' },
      out: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function isTranscriptFormat(value: string): value is TranscriptFormat {
  return (transcriptFormats as readonly string[]).includes(value);
}

/** Where each file's transcript goes: undefined for stdout. */
export function outputPaths(request: TranscribeRequest, cwd: string): (string | undefined)[] {
  if (request.files.length === 1 && request.outDir === undefined) return [undefined];
  const outDir = path.resolve(cwd, request.outDir ?? '.');
  const extension = formatTranscript(
    { language: 'en', duration: 0, segments: [] },
    request.format,
  ).fileExtension;
  const outputs = request.files.map((file) =>
    path.join(outDir, `${path.basename(file, path.extname(file))}.${extension}`),
  );
  // Refused before any work: a.wav and b/a.mp3 would overwrite each other, `notes.txt` itself.
  const inputs = new Set(request.files.map((file) => path.resolve(cwd, file)));
  outputs.forEach((output, index) => {
    if (outputs.indexOf(output) !== index)
      throw new TranscribeUsageError(
        `${request.files[outputs.indexOf(output)]} and ${request.files[index]} would both be written to ${output}: transcribe them separately`,
      );
    if (inputs.has(output))
      throw new TranscribeUsageError(`the transcript of ${request.files[index]} would overwrite ${output}`);
  });
  return outputs;
}

/**
 * `verbatim transcribe FILE...`: the server's speech engine on this machine, without a server,
 * a database, an account or credit. Transcribes as many files at once as the engine has
 * recognisers (a file's windows are decoded in order, each with the text before it as prompt, so
 * one file keeps one recogniser busy); a file that fails is reported and the others still run.
 * Returns the exit code; usage errors are thrown as TranscribeUsageError.
 */
export async function runTranscribeCommand(
  speech: TranscribeSpeechConfig,
  args: string[],
  io: TranscribeCliIo,
): Promise<number> {
  const request = parseTranscribeArgs(args);
  if (request === 'help') {
    await writeAll(io.stdout, `Usage: verbatim transcribe <file>... [options]\n\n${transcribeUsage}\n`);
    return transcribeExitCodes.ok;
  }
  const cwd = io.cwd ?? process.cwd();
  const outputs = outputPaths(request, cwd);
  const say = (text: string) => io.stderr.write(`${text}\n`);
  const fail = (text: string) => {
    say(`verbatim: ${text}`);
    return transcribeExitCodes.failed;
  };

  let engineConfig = speech;
  let language = request.language;
  if (request.model !== undefined) {
    const forced = await checkForcedModel(speech.modelsDir, request.model, language);
    if (forced.problem) return fail(forced.problem);
    // Only the forced model is ever chosen: it is the default, with no per-language choice.
    engineConfig = { ...speech, defaultModel: request.model, modelByLanguage: {} };
    // Detection needs a multilingual model, which the engine would pick instead of an English-only
    // one; the operator asked for this model, so its one language it is.
    if (forced.englishOnly) language = 'en';
  }

  const engine = await startSpeechEngine(engineConfig, io.logger);
  try {
    const status = engine.status();
    if (!status.ready) return fail(status.problem ?? 'the speech engine is not ready');
    try {
      engine.assertLanguage(language);
    } catch (error) {
      if (!isSpeechError(error)) throw error;
      const hint =
        error.code === 'UNSUPPORTED_LANGUAGE'
          ? ' Use a language code such as en or fr, fr-medical, or auto.'
          : '';
      return fail(`${error.message}${hint}`);
    }
    if (request.outDir !== undefined) {
      const outDir = path.resolve(cwd, request.outDir);
      try {
        await mkdir(outDir, { recursive: true });
      } catch (error) {
        return fail(
          `cannot create the folder ${outDir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        );
      }
    }

    const progress = progressReporter(io.stderr);
    let failures = 0;
    try {
      // As many files at once as the engine has recognisers: each decodes one window at a time.
      await pooled(request.files.length, engineConfig.workers, async (index) => {
        if (io.signal?.aborted) return;
        const file = request.files[index] ?? '';
        try {
          await transcribeOne(
            engine,
            { ...request, language },
            path.resolve(cwd, file),
            file,
            outputs[index],
            io,
            progress,
          );
        } catch (error) {
          if (io.signal?.aborted) return;
          failures += 1;
          progress.log(`verbatim: ${file}: ${describeFailure(error)}`);
        }
      });
    } finally {
      progress.stop();
    }
    if (io.signal?.aborted) {
      say('verbatim: stopped; files not finished were not written');
      return transcribeExitCodes.interrupted;
    }
    return failures > 0 ? transcribeExitCodes.failed : transcribeExitCodes.ok;
  } finally {
    await engine.close();
  }
}

async function transcribeOne(
  engine: SpeechEngine,
  request: TranscribeRequest,
  absolutePath: string,
  shownName: string,
  output: string | undefined,
  io: TranscribeCliIo,
  progress: ProgressReporter,
): Promise<void> {
  const started = performance.now();
  const probe = await engine.probe(absolutePath, io.signal, request.rawPcm);
  const bar = progress.file(shownName, probe.durationSeconds);
  let transcript: Transcript;
  try {
    transcript = await engine.transcribeFile(
      absolutePath,
      {
        ...(request.language !== undefined ? { language: request.language } : {}),
        ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
        ...(request.rawPcm ? { rawPcm: request.rawPcm } : {}),
        ...(io.signal ? { signal: io.signal } : {}),
        onProgress: (fraction) => bar.update(fraction),
      },
      probe,
    );
  } finally {
    bar.remove();
  }
  const { body } = formatTranscript(transcript, request.format);
  const text = body.endsWith('\n') ? body : `${body}\n`;
  if (output === undefined) {
    await writeAll(io.stdout, text);
  } else {
    await writeFileWhole(output, text);
  }
  const seconds = (performance.now() - started) / 1000;
  progress.log(
    `${shownName}: ${transcript.duration.toFixed(1)} s of audio, language ${transcript.language}, ` +
      `transcribed in ${seconds.toFixed(1)} s${output === undefined ? '' : ` → ${output}`}`,
  );
}

/** Written beside the target then renamed: an interrupted run never leaves half a transcript. */
async function writeFileWhole(output: string, text: string): Promise<void> {
  const partial = `${output}.${process.pid}.part`;
  try {
    await writeFile(partial, text);
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

function writeAll(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

/** Whether --model can be used as asked; if not, why, naming what is installed. */
async function checkForcedModel(
  modelsDir: string,
  name: string,
  language: string | undefined,
): Promise<{ problem: string; englishOnly?: undefined } | { problem?: undefined; englishOnly: boolean }> {
  const installed = await listInstalledModels(modelsDir);
  const usable = installed.filter((model) => model.info !== undefined).map((model) => model.name);
  const choices = usable.length
    ? `installed: ${usable.join(', ')}`
    : `no usable model is installed in ${modelsDir}`;
  const model = installed.find((candidate) => candidate.name === name);
  if (!model)
    return {
      problem: `the model ${name} is not installed (${choices}); download it with \`verbatim models download ${name}\``,
    };
  if (!model.info) return { problem: `the model ${name} cannot be used: ${model.problem} (${choices})` };
  const englishOnly = !model.info.multilingual;
  if (englishOnly && language !== undefined && language !== 'en')
    return { problem: `the model ${name} transcribes English only, not "${language}" (${choices})` };
  return { englishOnly };
}

/** The engine's message (which names no path), made specific where the reason says more. */
function describeFailure(error: unknown): string {
  if (!isSpeechError(error)) return error instanceof Error ? error.message : String(error);
  return readFailure(error) ?? error.message;
}

function readFailure(error: SpeechError): string | undefined {
  if (error.code !== 'INVALID_FILE') return undefined;
  // The engine names the API's parameters; here they are flags.
  if (error.message === notAudioMessage) {
    return 'Not an audio or video file. Headerless PCM is read with --encoding (s16le or f32le), --sample-rate and --channels.';
  }
  switch (error.details?.reason) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return undefined;
  }
}

interface ProgressReporter {
  /** A bar for a file being transcribed (several files may be at once). */
  file(name: string, durationSeconds: number): FileProgress;
  /** A line of its own, above the bars. */
  log(text: string): void;
  /** The bars are gone; the terminal is as it was. */
  stop(): void;
}

interface FileProgress {
  /** 0–1 of the audio's duration. */
  update(fraction: number): void;
  remove(): void;
}

/** Live bars on a terminal, one per file being transcribed; elsewhere (pipes, logs, tests) only the lines. */
function progressReporter(stream: TranscribeCliIo['stderr']): ProgressReporter {
  if (!stream.isTTY) {
    return {
      file: () => ({ update() {}, remove() {} }),
      log: (text) => void stream.write(`${text}\n`),
      stop() {},
    };
  }
  const steps = 1000;
  const bars = new MultiBar({
    stream,
    format: '{file} {bar} {percentage}% | {done} of {length} | {eta_formatted} left',
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
  });
  return {
    file(name, durationSeconds) {
      const bar = bars.create(steps, 0, { file: name, done: clock(0), length: clock(durationSeconds) });
      return {
        update: (fraction) =>
          bar.update(Math.round(fraction * steps), { done: clock(fraction * durationSeconds) }),
        remove: () => bars.remove(bar),
      };
    },
    log: (text) => bars.log(`${text}\n`),
    stop: () => bars.stop(),
  };
}

/** 83.4 → `1:23`; an hour or more → `1:02:03`. */
function clock(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
