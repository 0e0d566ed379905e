// Options of the speech benchmark (bench/speech.ts): flags first, then BENCH_* environment
// variables, then the server's own defaults for this machine, so that a plain run measures what
// production would do and tuning runs change one thing at a time.
import { parseArgs } from 'node:util';
import { speechPoolSize } from '../apps/server/src/config/config.js';

export interface SpeechBenchOptions {
  workers: number;
  threadsPerWorker: number;
  beamSize: number;
  /** Beam width for languages other than English (the engine's default: 5). */
  beamSizeOtherLanguages: number;
  fitEncoderContext: boolean;
  /** Languages of the dev set to run; all of the manifest's when empty. */
  languages: string[];
  /** Leave the language to detection instead of giving the manifest's. */
  detectLanguage: boolean;
  /** A subset (the first files of each language) for quick tuning runs. */
  quick: boolean;
  /** Also score whisper.cpp run as its CLI runs it on the same files (bench/speech-baseline.ts). */
  baseline: boolean;
  /** Timed passes over each file; the fastest counts (the machine is shared, timings are noisy). */
  repeat: number;
  tinyEnglish: boolean;
  /** Run faster-whisper on the same files and weights beside ours (bench/speech-peer.ts). */
  peer: boolean;
  /** Run everything again with one core kept busy by another process (`yes`), and compare. */
  busyCore: boolean;
  /** English model of the default choice (the server's SPEECH_MODEL_EN default). */
  englishModel: string;
  /** Minutes of the long-recording check; 0 skips it. */
  longMinutes: number;
  /** Seconds between two memory samples of the long recording. */
  sampleSeconds: number;
  /** A tag for the JSON file name and the log, e.g. `beam5`. */
  label: string;
}

const usage = `npm run bench:speech -- [options]   (or BENCH_* variables)
  --workers N            recogniser threads in the pool (BENCH_WORKERS; default: the server's for this machine)
  --threads N            whisper.cpp threads per worker (BENCH_THREADS; default: the server's)
  --beam N               beam width for English, 1 = greedy (BENCH_BEAM; default: the engine's, 5)
  --beam-other N         beam width for the other languages (BENCH_BEAM_OTHER; default: the engine's, 5)
  --no-fit-context       full 30 s encoder context instead of one fitted to the window (BENCH_FIT_CONTEXT=0)
  --languages en,fr      languages of the dev set to run (BENCH_LANGUAGES; default: all)
  --detect               leave the language to detection (BENCH_DETECT=1)
  --baseline             also score whisper.cpp as its CLI runs it (whole file, beam 5, no VAD) with the same normaliser (BENCH_BASELINE=1)
  --quick                two files per language, a 2-minute long recording (BENCH_QUICK=1)
  --repeat N             timed passes per file, the fastest counts (BENCH_REPEAT; default 1)
  --no-tiny              skip tiny.en on English (BENCH_TINY=0)
  --no-peer              skip faster-whisper (BENCH_PEER=0; it is installed into .venv-bench/ from PyPI on first use)
  --busy-core            then run it all again with one core kept busy by \`yes\` (BENCH_BUSY_CORE=1)
  --english-model NAME   English model of the default choice (BENCH_ENGLISH_MODEL; default: the server's SPEECH_MODEL_EN)
  --long-minutes N       length of the long-recording check, 0 to skip (BENCH_LONG_MINUTES; default 10)
  --sample-seconds N     memory sampling period of the long recording (default 3)
  --label TEXT           tag of this run in the JSON file name (BENCH_LABEL)`;

/** English with the server's defaults (apps/server/src/config/config.ts: SPEECH_MODEL_EN unset). */
const defaultEnglishModel = 'base-q8_0';

function positiveInteger(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new Error(`${name} must be an integer ≥ ${min}, got "${value}"\n\n${usage}`);
  }
  return parsed;
}

function flagOrEnv(flag: boolean | undefined, env: string | undefined): boolean {
  if (flag) return true;
  return env !== undefined && ['1', 'true', 'yes'].includes(env.trim().toLowerCase());
}

export function readSpeechBenchOptions(
  argv: string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): SpeechBenchOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        workers: { type: 'string' },
        threads: { type: 'string' },
        beam: { type: 'string' },
        'beam-other': { type: 'string' },
        'no-fit-context': { type: 'boolean' },
        languages: { type: 'string' },
        detect: { type: 'boolean' },
        quick: { type: 'boolean' },
        baseline: { type: 'boolean' },
        repeat: { type: 'string' },
        'no-tiny': { type: 'boolean' },
        'no-peer': { type: 'boolean' },
        'busy-core': { type: 'boolean' },
        'english-model': { type: 'string' },
        'long-minutes': { type: 'string' },
        'sample-seconds': { type: 'string' },
        label: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  // The server's pool rule for this machine (SPEECH_WORKERS and SPEECH_THREADS unset).
  const pool = speechPoolSize(undefined, undefined);
  const quick = flagOrEnv(values.quick, env.BENCH_QUICK);
  const languages = (values.languages ?? env.BENCH_LANGUAGES ?? '')
    .split(',')
    .map((language) => language.trim().toLowerCase())
    .filter(Boolean);
  const fitEnv = env.BENCH_FIT_CONTEXT?.trim();
  const workers = positiveInteger('--workers', values.workers ?? env.BENCH_WORKERS, pool.workers);
  const threadsPerWorker = positiveInteger(
    '--threads',
    values.threads ?? env.BENCH_THREADS,
    pool.threadsPerWorker,
  );
  return {
    workers,
    threadsPerWorker,
    beamSize: positiveInteger('--beam', values.beam ?? env.BENCH_BEAM, 5),
    beamSizeOtherLanguages: positiveInteger('--beam-other', values['beam-other'] ?? env.BENCH_BEAM_OTHER, 5),
    fitEncoderContext: !(values['no-fit-context'] || fitEnv === '0' || fitEnv === 'false'),
    languages,
    detectLanguage: flagOrEnv(values.detect, env.BENCH_DETECT),
    quick,
    baseline: flagOrEnv(values.baseline, env.BENCH_BASELINE),
    repeat: positiveInteger('--repeat', values.repeat ?? env.BENCH_REPEAT, 1),
    tinyEnglish: !(values['no-tiny'] || env.BENCH_TINY === '0'),
    peer: !(values['no-peer'] || env.BENCH_PEER === '0'),
    busyCore: flagOrEnv(values['busy-core'], env.BENCH_BUSY_CORE),
    englishModel: values['english-model'] ?? env.BENCH_ENGLISH_MODEL ?? defaultEnglishModel,
    longMinutes: positiveInteger(
      '--long-minutes',
      values['long-minutes'] ?? env.BENCH_LONG_MINUTES,
      quick ? 2 : 10,
      0,
    ),
    sampleSeconds: positiveInteger('--sample-seconds', values['sample-seconds'], 3),
    label: (values.label ?? env.BENCH_LABEL ?? '').replace(/[^\w.-]+/g, '-'),
  };
}
