// Speaker diarization benchmark: the dev set of ../shared/testdata/diarization (AMI meeting
// excerpts with heavy overlap, pyannote's sample, a three-speaker clip; an RTTM beside each),
// diarized by the engine and scored by pyannote.metrics (DER with a 0.25 s collar each side,
// overlapped speech scored): DER per file and in total with its parts, speakers found against the
// truth, real-time factor of diarization alone, of transcription alone and of both together (the
// way a request with diarize=true runs them: side by side), and the process's peak memory.
// Run with `npm run bench:diarization` (bench/diarization/run.sh installs pyannote.metrics into a
// venv); `-- --help` for the options. Not a test: the machine is shared, so every figure comes
// with the load average it was measured under.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  OnnxSpeakerDiarizer,
  defaultDiarizationTuning,
  openSpeakerDiarizer,
  speakerBounds,
  SpeechEngine,
  type DiarizationTuning,
  type RecordingAnalysis,
  type SpeakerDiarizer,
  type SpeakerTurn,
} from '@verbatim/speech';
import { decodedRecording, repoRoot, sharedModelsDir, testdataDir } from '@verbatim/speech/test-support';
import { speechPoolSize } from '../apps/server/src/config/config.js';

const usage = `npm run bench:diarization -- [options]
  --python PATH        Python with pyannote.metrics (run.sh passes its venv's)
  --threshold X        clustering threshold (cosine distance; default: the engine's)
  --activity P         probability from which a local speaker speaks (default: the engine's)
  --max-embedding S    seconds of a local speaker the embedding network sees at most per window
  --step S             hop between 10 s segmentation windows in seconds (default: the engine's)
  --threads N          ONNX Runtime threads of the diarizer (default 1, as the server runs it)
  --no-transcription   diarization and DER only (quick tuning runs)
  --thresholds A,B,…   tuning: the networks run once per file, then each clustering threshold is
                       scored on the whole set (no transcription)
  --label TEXT         tag of this run in the JSON file name`;

const { values } = parseArgs({
  options: {
    python: { type: 'string' },
    threshold: { type: 'string' },
    step: { type: 'string' },
    activity: { type: 'string' },
    'max-embedding': { type: 'string' },
    threads: { type: 'string' },
    'no-transcription': { type: 'boolean' },
    thresholds: { type: 'string' },
    label: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help || !values.python) {
  console.log(usage);
  process.exit(values.help ? 0 : 1);
}
const python = values.python;
const tuning: Partial<DiarizationTuning> = {
  ...(values.threshold ? { clusteringThreshold: Number(values.threshold) } : {}),
  ...(values.step ? { windowStepSeconds: Number(values.step) } : {}),
  ...(values.activity ? { activityThreshold: Number(values.activity) } : {}),
  ...(values['max-embedding'] ? { maxEmbeddingSeconds: Number(values['max-embedding']) } : {}),
};
const threads = Number(values.threads ?? 1);
const datasetDir = path.join(testdataDir, 'diarization');
const resultsDir = path.join(repoRoot, 'bench/results/diarization', values.label ?? 'latest');
/** The server's defaults (apps/server config, SPEECH_MODEL_EN unset): base for every language. */
const englishModel = 'base-q8_0';
/** The server's recogniser pool for this machine (SPEECH_WORKERS and SPEECH_THREADS unset). */
const pool = speechPoolSize(undefined, undefined);
const mebibyte = 1024 * 1024;

interface FileRun {
  name: string;
  seconds: number;
  turns: SpeakerTurn[];
  diarizeSeconds: number;
  diarizeCpuSeconds: number;
  transcribeSeconds?: number;
  transcribeCpuSeconds?: number;
  bothSeconds?: number;
}

const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits;
const load = (): string =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function rttm(name: string, turns: readonly SpeakerTurn[]): string {
  return turns
    .map(
      (turn) =>
        `SPEAKER ${name} 1 ${turn.start.toFixed(3)} ${(turn.end - turn.start).toFixed(3)} <NA> <NA> S${turn.speaker + 1} <NA> <NA>\n`,
    )
    .join('');
}

function referenceSpeakers(name: string): number {
  const lines = readFileSync(path.join(datasetDir, `${name}.rttm`), 'utf8').split('\n');
  return new Set(lines.filter((line) => line.startsWith('SPEAKER')).map((line) => line.split(/\s+/)[7])).size;
}

/** Wall time, and CPU time of the whole process (all its threads), which a loaded machine distorts less. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return {
    value,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

type Scores = {
  files: Record<
    string,
    { der: number; scored: number; missed: number; falseAlarm: number; confusion: number }
  >;
  total: {
    der: number;
    scored: number;
    missed: number;
    falseAlarm: number;
    confusion: number;
    /** Reference speech with 1, 2, 3 and 4+ speakers at once, and the part of it missed (s, no collar). */
    bySpeakersAtOnce: Record<'1' | '2' | '3' | '4+', { speech: number; missed: number }>;
  };
};

function score(directory: string, names: readonly string[]): Scores {
  const output = execFileSync(
    python,
    [path.join(repoRoot, 'bench/diarization/score_der.py'), datasetDir, directory, ...names],
    { encoding: 'utf8' },
  );
  return JSON.parse(output) as Scores;
}

/** Clustering thresholds compared on the whole set, the networks run once per file. */
async function sweep(names: readonly string[], thresholds: readonly number[]): Promise<void> {
  const diarizer = await OnnxSpeakerDiarizer.open(sharedModelsDir, threads, {
    ...defaultDiarizationTuning,
    ...tuning,
  });
  const analyses: RecordingAnalysis[] = [];
  for (const name of names)
    analyses.push(await diarizer.analyse(await decodedRecording(path.join(datasetDir, `${name}.wav`))));
  await diarizer.close();
  const rows = [];
  for (const threshold of thresholds) {
    const directory = `${resultsDir}-t${threshold}`;
    mkdirSync(directory, { recursive: true });
    const counts = names.map((name, index) => {
      const analysis = analyses[index];
      const turns = analysis ? diarizer.cluster(analysis, speakerBounds({}), threshold) : [];
      writeFileSync(path.join(directory, `${name}.rttm`), rttm(name, turns));
      return `${new Set(turns.map((turn) => turn.speaker)).size}/${referenceSpeakers(name)}`;
    });
    const { total } = score(directory, names);
    rows.push({
      threshold,
      DER: `${(100 * total.der).toFixed(1)}%`,
      missed: `${((100 * total.missed) / total.scored).toFixed(1)}%`,
      falseAlarm: `${((100 * total.falseAlarm) / total.scored).toFixed(1)}%`,
      confusion: `${((100 * total.confusion) / total.scored).toFixed(1)}%`,
      speakers: counts.join(' '),
      right: counts.filter((count) => count.split('/')[0] === count.split('/')[1]).length,
    });
  }
  console.table(rows);
}

async function main(): Promise<void> {
  console.log(`Diarization benchmark, ${threads} ONNX thread(s); load before: ${load()}`);
  const names = readdirSync(datasetDir)
    .filter((file) => file.endsWith('.wav'))
    .map((file) => file.slice(0, -4))
    .sort();
  if (values.thresholds) {
    await sweep(names, values.thresholds.split(',').map(Number));
    return;
  }
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const opened = await timed(() => openSpeakerDiarizer(sharedModelsDir, { threads, tuning }));
  const diarizer: SpeakerDiarizer = opened.value;
  console.log(`models loaded in ${opened.seconds.toFixed(2)} s`);
  const engine = values['no-transcription']
    ? undefined
    : await SpeechEngine.start({
        modelsDir: sharedModelsDir,
        defaultModel: 'base-q8_0',
        modelByLanguage: { en: englishModel },
        workers: pool.workers,
        threadsPerWorker: pool.threadsPerWorker,
        queueLimit: 100,
        maxDurationSeconds: 3600,
      });
  const runs: FileRun[] = [];
  try {
    for (const name of names) {
      const file = path.join(datasetDir, `${name}.wav`);
      const samples = await decodedRecording(file);
      const diarized = await timed(() => diarizer.diarize(samples));
      const run: FileRun = {
        name,
        seconds: samples.length / 16_000,
        turns: diarized.value,
        diarizeSeconds: diarized.seconds,
        diarizeCpuSeconds: diarized.cpuSeconds,
      };
      if (engine) {
        await engine.transcribeFile(file, { language: 'en' }); // warm the recogniser on this file
        const transcribed = await timed(() => engine.transcribeFile(file, { language: 'en' }));
        run.transcribeSeconds = transcribed.seconds;
        run.transcribeCpuSeconds = transcribed.cpuSeconds;
        // As a request with diarize=true: decode for the diarizer beside the transcription.
        run.bothSeconds = (
          await timed(() =>
            Promise.all([
              engine.transcribeFile(file, { language: 'en' }),
              decodedRecording(file).then((decoded) => diarizer.diarize(decoded)),
            ]),
          )
        ).seconds;
      }
      runs.push(run);
    }
  } finally {
    clearInterval(sampler);
    await diarizer.close();
    await engine?.close();
  }

  mkdirSync(resultsDir, { recursive: true });
  for (const run of runs) writeFileSync(path.join(resultsDir, `${run.name}.rttm`), rttm(run.name, run.turns));
  const scores = score(resultsDir, names);

  const percent = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)}%`;
  const rows = runs.map((run) => {
    const score = scores.files[run.name];
    const truth = referenceSpeakers(run.name);
    const found = new Set(run.turns.map((turn) => turn.speaker)).size;
    return {
      file: run.name,
      DER: score ? percent(score.der, 1) : '?',
      missed: score ? percent(score.missed, score.scored) : '?',
      falseAlarm: score ? percent(score.falseAlarm, score.scored) : '?',
      confusion: score ? percent(score.confusion, score.scored) : '?',
      speakers: `${found}/${truth}`,
      rightCount: found === truth,
      diarizeRtf: round(run.diarizeSeconds / run.seconds),
      transcribeRtf: run.transcribeSeconds === undefined ? '-' : round(run.transcribeSeconds / run.seconds),
      bothRtf: run.bothSeconds === undefined ? '-' : round(run.bothSeconds / run.seconds),
      added:
        run.transcribeSeconds === undefined || run.bothSeconds === undefined
          ? '-'
          : `${((100 * (run.bothSeconds - run.transcribeSeconds)) / run.transcribeSeconds).toFixed(0)}%`,
    };
  });
  console.table(rows);
  const total = scores.total;
  const audio = runs.reduce((sum, run) => sum + run.seconds, 0);
  const sum = (pick: (run: FileRun) => number | undefined): number =>
    runs.reduce((s, run) => s + (pick(run) ?? 0), 0);
  const summary = {
    tuning,
    threads,
    totalDER: percent(total.der, 1),
    missed: percent(total.missed, total.scored),
    falseAlarm: percent(total.falseAlarm, total.scored),
    confusion: percent(total.confusion, total.scored),
    // Where the missed speech is: segmentation-3.0 gives at most two speakers to a frame.
    missedBySpeakersAtOnce: Object.fromEntries(
      Object.entries(total.bySpeakersAtOnce).map(([speaking, { speech, missed }]) => [
        speaking,
        `${missed.toFixed(1)} of ${speech.toFixed(1)} s`,
      ]),
    ),
    speakerCountRight: `${rows.filter((row) => row.rightCount).length}/${rows.length}`,
    diarizeRtf: round(sum((run) => run.diarizeSeconds) / audio),
    transcribeRtf: engine ? round(sum((run) => run.transcribeSeconds) / audio) : undefined,
    diarizeCpuPerAudioSecond: round(sum((run) => run.diarizeCpuSeconds) / audio),
    transcribeCpuPerAudioSecond: engine ? round(sum((run) => run.transcribeCpuSeconds) / audio) : undefined,
    bothRtf: engine ? round(sum((run) => run.bothSeconds) / audio) : undefined,
    // The target: what diarization adds to a file's transcription time, in total and at worst.
    addedInTotal: engine
      ? percent(
          sum((run) => run.bothSeconds) - sum((run) => run.transcribeSeconds),
          sum((run) => run.transcribeSeconds),
        )
      : undefined,
    addedAtWorst: engine
      ? percent(
          Math.max(
            ...runs.map(
              (run) => ((run.bothSeconds ?? 0) - (run.transcribeSeconds ?? 0)) / (run.transcribeSeconds ?? 1),
            ),
          ),
          1,
        )
      : undefined,
    modelLoadSeconds: round(opened.seconds, 2),
    peakRssMiB: Math.round(peakRss / mebibyte),
    load: load(),
  };
  console.log(summary);
  writeFileSync(path.join(resultsDir, 'summary.json'), JSON.stringify({ summary, rows, scores }, null, 2));
}

await main();
