// Speech engine benchmark: the dev set of ../shared/testdata (the `utt` rows of its manifest)
// through the whole pipeline (ffmpeg decode → Silero VAD → windows → whisper.cpp workers), per
// language: normalised WER, real-time factor, CPU time, peak memory, beside the reference figures
// of whisper.cpp's own CLI (../shared/models/README.md); then tiny.en on English; then a long
// recording, to show that memory stays flat whatever the length.
// Run with `npm run bench:speech` (`-- --help` for the options). Not a test: the machine is
// shared, so every figure comes with the load average it was measured under.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SpeechEngine, transcriptText, type SpeechEngineOptions, type Transcript } from '@verbatim/speech';
import {
  aggregateWer,
  readManifest,
  repoRoot,
  sharedModelsDir,
  wordErrorRate,
  type ManifestEntry,
  type WerResult,
} from '@verbatim/speech/test-support';
import { buildLongRecording } from './long-recording.js';
import { cliBaselineWer } from './speech-baseline.js';
import { readSpeechBenchOptions, type SpeechBenchOptions } from './speech-options.js';

/**
 * whisper.cpp's CLI on the same files (`whisper-cli -t 2 -l LANG`, beam 5, temperature fallback),
 * copied from ../shared/models/README.md, "Reference figures on ../testdata".
 */
const references: Record<string, { wer: number; rtf: number } | undefined> = {
  'base-q8_0/en': { wer: 0.0137, rtf: 0.31 },
  'base-q8_0/fr': { wer: 0.245, rtf: 0.24 },
  'base-q8_0/de': { wer: 0.145, rtf: 0.21 },
  'base-q8_0/es': { wer: 0.078, rtf: 0.27 },
  'tiny.en-q8_0/en': { wer: 0.0206, rtf: 0.17 },
};
const defaultModel = 'base-q8_0';
const englishModel = 'tiny.en-q8_0';
const quickFilesPerLanguage = 2;
const mebibyte = 1024 * 1024;

/** Samples the process's resident memory and the main thread's heap on a timer. */
class MemorySampler {
  readonly samples: {
    seconds: number;
    rssMiB: number;
    heapMiB: number;
    /** Memory of ArrayBuffers and native objects known to V8 (audio chunks, ONNX tensors). */
    externalMiB: number;
    progress: number;
  }[] = [];
  progress = 0;
  #timer: NodeJS.Timeout | undefined;
  #started = performance.now();

  start(periodSeconds: number): void {
    this.#started = performance.now();
    this.sample();
    this.#timer = setInterval(() => this.sample(), periodSeconds * 1000);
  }

  sample(): void {
    // Under `node --expose-gc`, garbage is collected first, so that growth left is live memory.
    (globalThis as { gc?: () => void }).gc?.();
    const usage = process.memoryUsage();
    this.samples.push({
      seconds: round((performance.now() - this.#started) / 1000, 1),
      rssMiB: round(usage.rss / mebibyte, 1),
      heapMiB: round(usage.heapUsed / mebibyte, 1),
      externalMiB: round(usage.external / mebibyte, 1),
      progress: round(this.progress, 3),
    });
  }

  stop(): void {
    clearInterval(this.#timer);
    this.sample();
  }

  get peakRssMiB(): number {
    return Math.max(...this.samples.map((sample) => sample.rssMiB));
  }

  get peakHeapMiB(): number {
    return Math.max(...this.samples.map((sample) => sample.heapMiB));
  }
}

interface FileResult {
  path: string;
  language: string;
  detected: string;
  seconds: number;
  /** Fastest timed pass. */
  processingSeconds: number;
  wer: WerResult;
  hypothesis: string;
}

interface LanguageRow {
  model: string;
  language: string;
  files: number;
  audioSeconds: number;
  words: number;
  wer: number;
  referenceWer: number | undefined;
  /** whisper.cpp as its CLI runs it, on the same files and scoring (with --baseline). */
  baselineWer?: number | undefined;
  rtf: number;
  referenceRtf: number | undefined;
  /** CPU seconds of the whole process per second of audio (less sensitive to other people's load). */
  cpuPerAudioSecond: number;
  peakRssMiB: number;
  maxRssMiB: number;
  peakHeapMiB: number;
  wrongLanguage: number;
  loadAverage: number;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function percent(value: number | undefined): string {
  return value === undefined ? '' : `${(value * 100).toFixed(2)}%`;
}

/** The process's resident-memory high-water mark so far, in MiB (maxRSS is in KiB). */
function maxRssMiB(): number {
  return round(process.resourceUsage().maxRSS / 1024, 1);
}

function loadAverage(): number {
  return round(os.loadavg()[0] ?? 0, 2);
}

/** Runs `count` tasks with at most `parallel` at a time, in order of index. */
async function pooled(count: number, parallel: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function startEngine(
  options: SpeechBenchOptions,
  modelByLanguage: Record<string, string>,
): Promise<SpeechEngine> {
  const engineOptions: SpeechEngineOptions = {
    modelsDir: sharedModelsDir,
    defaultModel,
    modelByLanguage,
    workers: options.workers,
    threadsPerWorker: options.threadsPerWorker,
    queueLimit: 1000,
    maxDurationSeconds: 4 * 3600,
    decoding: {
      beamSize: options.beamSize,
      beamSizeOtherLanguages: options.beamSizeOtherLanguages,
      fitEncoderContext: options.fitEncoderContext,
    },
  };
  const engine = await SpeechEngine.start(engineOptions);
  const status = engine.status();
  if (!status.ready) throw new Error(`The speech engine is not ready: ${status.problem ?? 'unknown reason'}`);
  return engine;
}

/** The files of one language, timed as a batch (workers at once); the fastest of `repeat` batches counts. */
async function runLanguage(
  engine: SpeechEngine,
  model: string,
  language: string,
  entries: ManifestEntry[],
  options: SpeechBenchOptions,
): Promise<{ row: LanguageRow; files: FileResult[] }> {
  const sampler = new MemorySampler();
  sampler.start(0.5);
  let bestBatchSeconds = Infinity;
  let bestCpuSeconds = 0;
  const results: FileResult[] = [];
  for (let pass = 0; pass < options.repeat; pass++) {
    const cpuBefore = process.cpuUsage();
    const batchStarted = performance.now();
    await pooled(entries.length, options.workers, async (index) => {
      const entry = entries[index];
      if (!entry) return;
      const started = performance.now();
      const transcript: Transcript = await engine.transcribeFile(
        entry.absolutePath,
        options.detectLanguage ? {} : { language },
      );
      const processingSeconds = (performance.now() - started) / 1000;
      const known = results[index];
      if (known) {
        known.processingSeconds = Math.min(known.processingSeconds, processingSeconds);
        return;
      }
      const hypothesis = transcriptText(transcript);
      results[index] = {
        path: entry.path,
        language,
        detected: transcript.language,
        seconds: entry.durationSeconds,
        processingSeconds,
        wer: wordErrorRate(entry.referenceText, hypothesis, language),
        hypothesis,
      };
    });
    const batchSeconds = (performance.now() - batchStarted) / 1000;
    if (batchSeconds < bestBatchSeconds) {
      bestBatchSeconds = batchSeconds;
      const cpu = process.cpuUsage(cpuBefore);
      bestCpuSeconds = (cpu.user + cpu.system) / 1e6;
    }
  }
  sampler.stop();
  const audioSeconds = entries.reduce((total, entry) => total + entry.durationSeconds, 0);
  const wer = aggregateWer(results.map((result) => result.wer));
  const reference = references[`${model}/${language}`];
  return {
    files: results,
    row: {
      model,
      language,
      files: entries.length,
      audioSeconds: round(audioSeconds, 2),
      words: wer.referenceWords,
      wer: wer.wer,
      referenceWer: reference?.wer,
      rtf: bestBatchSeconds / audioSeconds,
      referenceRtf: reference?.rtf,
      cpuPerAudioSecond: bestCpuSeconds / audioSeconds,
      peakRssMiB: sampler.peakRssMiB,
      maxRssMiB: maxRssMiB(),
      peakHeapMiB: sampler.peakHeapMiB,
      wrongLanguage: results.filter((result) => result.detected !== language).length,
      loadAverage: loadAverage(),
    },
  };
}

function tableOf(rows: LanguageRow[], detect: boolean) {
  return rows.map((row) => ({
    model: row.model,
    lang: row.language,
    files: row.files,
    words: row.words,
    WER: percent(row.wer),
    'ref WER': percent(row.referenceWer),
    ...(row.baselineWer === undefined ? {} : { 'CLI WER same scoring': percent(row.baselineWer) }),
    RTF: row.rtf.toFixed(3),
    'ref RTF': row.referenceRtf?.toFixed(2) ?? '',
    'cpu/audio': row.cpuPerAudioSecond.toFixed(3),
    'RSS peak MiB': row.peakRssMiB,
    'maxRSS MiB': row.maxRssMiB,
    'heap MiB': row.peakHeapMiB,
    ...(detect ? { 'wrong lang': row.wrongLanguage } : {}),
    load: row.loadAverage,
  }));
}

function printErrors(files: FileResult[]): void {
  for (const file of files) {
    if (file.wer.errors === 0) continue;
    console.log(`  ${file.path}: ${file.wer.errors} error(s) [${file.detected}] «${file.hypothesis}»`);
  }
}

/** The whole dev set of one model: a warm-up transcription first, so that timing starts with the model loaded. */
async function runModel(
  engine: SpeechEngine,
  model: string,
  byLanguage: Map<string, ManifestEntry[]>,
  options: SpeechBenchOptions,
): Promise<{ rows: LanguageRow[]; files: FileResult[] }> {
  const first = [...byLanguage.values()][0]?.[0];
  if (!first) return { rows: [], files: [] };
  await engine.transcribeFile(first.absolutePath, { language: first.language });
  const rows: LanguageRow[] = [];
  const files: FileResult[] = [];
  for (const [language, entries] of byLanguage) {
    const result = await runLanguage(engine, model, language, entries, options);
    if (options.baseline) {
      result.row.baselineWer = await cliBaselineWer(`ggml-${model}.bin`, entries, options.threadsPerWorker);
    }
    console.log(
      `${model} ${language}: WER ${percent(result.row.wer)}, RTF ${result.row.rtf.toFixed(3)} (load ${result.row.loadAverage})`,
    );
    printErrors(result.files);
    rows.push(result.row);
    files.push(...result.files);
  }
  return { rows, files };
}

async function runLongRecording(engine: SpeechEngine, options: SpeechBenchOptions) {
  const recording = buildLongRecording(options.longMinutes);
  try {
    const probe = await engine.probe(recording.path);
    const sampler = new MemorySampler();
    const loadBefore = loadAverage();
    sampler.start(options.sampleSeconds);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const transcript = await engine.transcribeFile(
      recording.path,
      {
        ...(options.detectLanguage ? {} : { language: 'en' }),
        onProgress: (fraction) => {
          sampler.progress = fraction;
        },
      },
      probe,
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    sampler.stop();
    const samples = sampler.samples;
    const pick = (sample: (typeof samples)[number] | undefined) =>
      sample
        ? {
            rssMiB: sample.rssMiB,
            heapMiB: sample.heapMiB,
            externalMiB: sample.externalMiB,
            atSeconds: sample.seconds,
          }
        : undefined;
    const text = transcriptText(transcript);
    const wer = wordErrorRate(recording.referenceText, text, 'en');
    return {
      audioSeconds: round(probe.durationSeconds, 1),
      readings: recording.repeats,
      processingSeconds: round(seconds, 1),
      rtf: round(seconds / probe.durationSeconds, 3),
      cpuPerAudioSecond: round((cpu.user + cpu.system) / 1e6 / probe.durationSeconds, 3),
      wer: round(wer.wer, 4),
      words: wer.referenceWords,
      segments: transcript.segments.length,
      memory: {
        first: pick(samples[0]),
        middle: pick(samples[Math.floor(samples.length / 2)]),
        last: pick(samples.at(-1)),
        peakRssMiB: sampler.peakRssMiB,
        peakHeapMiB: sampler.peakHeapMiB,
        maxRssMiB: maxRssMiB(),
      },
      loadAverage: { before: loadBefore, after: loadAverage() },
      samples,
      text,
    };
  } finally {
    recording.scratch.dispose();
  }
}

function groupByLanguage(
  entries: ManifestEntry[],
  options: SpeechBenchOptions,
): Map<string, ManifestEntry[]> {
  const groups = new Map<string, ManifestEntry[]>();
  for (const entry of entries) {
    if (options.languages.length > 0 && !options.languages.includes(entry.language)) continue;
    const group = groups.get(entry.language) ?? [];
    if (!options.quick || group.length < quickFilesPerLanguage) group.push(entry);
    groups.set(entry.language, group);
  }
  return groups;
}

async function main(): Promise<void> {
  const options = readSpeechBenchOptions();
  const devSet = readManifest().filter((entry) => entry.subset === 'utt');
  const byLanguage = groupByLanguage(devSet, options);
  if (byLanguage.size === 0)
    throw new Error(`No dev-set file in the languages ${options.languages.join(', ')}.`);
  const environment = {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverageAtStart: os.loadavg().map((load) => round(load, 2)),
  };
  console.log(
    `Speech benchmark: ${options.workers} worker(s) × ${options.threadsPerWorker} thread(s), ` +
      `beam ${options.beamSize} (other languages ${options.beamSizeOtherLanguages}), encoder context ${options.fitEncoderContext ? 'fitted' : 'full 30 s'}, ` +
      `language ${options.detectLanguage ? 'detected' : 'given'}, ${options.repeat} pass(es)` +
      `${options.quick ? ', quick subset' : ''}; ${environment.cpus} cores, load ${environment.loadAverageAtStart.join(' ')}`,
  );

  const rows: LanguageRow[] = [];
  const files: FileResult[] = [];
  let long: Awaited<ReturnType<typeof runLongRecording>> | undefined;

  const base = await startEngine(options, {});
  try {
    const result = await runModel(base, defaultModel, byLanguage, options);
    rows.push(...result.rows);
    files.push(...result.files);
    if (options.longMinutes > 0) {
      console.log(`Long recording: about ${options.longMinutes} minutes of Sonnet 1 with pauses…`);
      long = await runLongRecording(base, options);
    }
  } finally {
    await base.close();
  }

  const english = byLanguage.get('en');
  if (options.tinyEnglish && english) {
    const tiny = await startEngine(options, { en: englishModel });
    try {
      const result = await runModel(tiny, englishModel, new Map([['en', english]]), options);
      rows.push(...result.rows);
      files.push(...result.files.map((file) => ({ ...file, path: `${englishModel}:${file.path}` })));
    } finally {
      await tiny.close();
    }
  }

  console.log('');
  console.table(tableOf(rows, options.detectLanguage));
  const baseRows = rows.filter((row) => row.model === defaultModel);
  if (baseRows.length > 1) {
    const audio = baseRows.reduce((total, row) => total + row.audioSeconds, 0);
    const seconds = baseRows.reduce((total, row) => total + row.rtf * row.audioSeconds, 0);
    const wer = aggregateWer(
      files.filter((file) => !file.path.startsWith(`${englishModel}:`)).map((file) => file.wer),
    );
    console.log(
      `${defaultModel}, all languages: RTF ${(seconds / audio).toFixed(3)} over ${audio.toFixed(1)} s of audio, WER ${percent(wer.wer)}`,
    );
  }
  if (long) {
    const { memory } = long;
    console.log(
      `Long recording (${defaultModel}): ${long.audioSeconds} s of audio, ${long.readings} readings, ` +
        `${long.processingSeconds} s → RTF ${long.rtf} (cpu/audio ${long.cpuPerAudioSecond}), WER ${percent(long.wer)} ` +
        `of ${long.words} words, load ${long.loadAverage.before} → ${long.loadAverage.after}`,
    );
    console.table(
      (['first', 'middle', 'last'] as const).map((at) => ({
        sample: at,
        's into run': memory[at]?.atSeconds,
        'RSS MiB': memory[at]?.rssMiB,
        'heap MiB': memory[at]?.heapMiB,
        'external MiB': memory[at]?.externalMiB,
      })),
    );
    console.log(
      `  peak RSS ${memory.peakRssMiB} MiB, peak heap ${memory.peakHeapMiB} MiB (${long.samples.length} samples every ${options.sampleSeconds} s)`,
    );
  }

  const resultsDir = path.join(repoRoot, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(resultsDir, `speech-${stamp}${options.label ? `-${options.label}` : ''}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ options, environment, rows, files, long, finishedLoadAverage: os.loadavg() }, null, 2)}\n`,
  );
  console.log(`Results written to ${path.relative(repoRoot, file)}`);
}

await main();
