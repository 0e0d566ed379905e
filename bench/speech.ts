// Speech engine benchmark: the dev set of ../shared/testdata (the `utt` rows of its manifest)
// through the whole pipeline (ffmpeg decode → Silero VAD → windows → whisper.cpp workers), beside
// faster-whisper (CTranslate2 int8, beam 5, no VAD) on the same files and the same Whisper weights:
// per language and model, normalised WER and wall time of both, model load included, as a user
// runs a folder; each side starts cold, the two run back to back, the first of them alternating.
// Then, with --busy-core, all of it again beside a busy loop on one core; then a long recording,
// to show that memory stays flat whatever the length.
// Run with `npm run bench:speech` (`-- --help` for the options). Not a test: the machine is
// shared, so every figure comes with the load average it was measured under.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SpeechEngine, transcriptText, type SpeechEngineOptions } from '@verbatim/speech';
import {
  aggregateWer,
  readManifest,
  repoRoot,
  sharedModelsDir,
  werDifference,
  wordErrorRate,
  type ManifestEntry,
  type WerResult,
} from '@verbatim/speech/test-support';
import { stealMeter } from './cpu-steal.js';
import { buildLongRecording } from './long-recording.js';
import { cliBaselineWer } from './speech-baseline.js';
import { startBusyCore } from './speech-busy-core.js';
import { readSpeechBenchOptions, type SpeechBenchOptions } from './speech-options.js';
import { preparePeer, runPeer, type PeerRun } from './speech-peer.js';
import { pooled } from '../apps/server/src/lib/pooled.js';

const defaultModel = 'base-q8_0';
/** The English-only model measured beside base on English (--no-tiny skips it). */
const tinyEnglishModel = 'tiny.en-q8_0';
const quickFilesPerLanguage = 2;
const mebibyte = 1024 * 1024;
/** Clips of conversational speech (restarts, fillers, whispering), reported apart from read speech. */
const spontaneousNotes = /spontaneous|disfluent|whispered/i;

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
  spontaneous: boolean;
  detected: string;
  seconds: number;
  wer: WerResult;
  hypothesis: string;
  peer?: { wer: WerResult; hypothesis: string } | undefined;
}

interface Row {
  model: string;
  language: string;
  files: number;
  audioSeconds: number;
  words: number;
  wer: number;
  /** Wall time of the whole run: engine start and model load, every file, close (fastest pass). */
  seconds: number;
  /**
   * CPU seconds of the whole run, ffmpeg's and ffprobe's processes included (fastest pass): less
   * sensitive to other people's load than wall time.
   */
  cpuSeconds: number;
  peakRssMiB: number;
  peerWer?: number | undefined;
  /** faster-whisper's wall time: model load and every file (fastest pass). */
  peerSeconds?: number | undefined;
  /** faster-whisper's CPU seconds in that pass (its process, every thread). */
  peerCpuSeconds?: number | undefined;
  /** whisper.cpp as its CLI runs it, on the same files and scoring (with --baseline). */
  baselineWer?: number | undefined;
  wrongLanguage: number;
  /** One-minute load average after the row. */
  loadAverage: number;
}

interface Run {
  rows: Row[];
  files: FileResult[];
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function percent(value: number | undefined): string {
  return value === undefined ? '' : `${(value * 100).toFixed(2)}%`;
}

/**
 * CPU seconds of this process and of its children that have ended (ffmpeg, ffprobe): Node's
 * cpuUsage leaves the children out, and a recording's decoding runs in them.
 */
function cpuSecondsWithChildren(): number {
  const own = process.cpuUsage();
  // /proc/self/stat: fields 16 and 17 (cutime, cstime) in clock ticks (USER_HZ, 100 on Linux).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  const childTicks = Number(fields[13] ?? 0) + Number(fields[14] ?? 0);
  return (own.user + own.system) / 1e6 + childTicks / 100;
}

/** The process's resident-memory high-water mark so far, in MiB (maxRSS is in KiB). */
function maxRssMiB(): number {
  return round(process.resourceUsage().maxRSS / 1024, 1);
}

function loadAverage(): number {
  return round(os.loadavg()[0] ?? 0, 2);
}

function engineOptions(
  options: SpeechBenchOptions,
  modelByLanguage: Record<string, string>,
): SpeechEngineOptions {
  return {
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
}

async function startEngine(
  options: SpeechBenchOptions,
  modelByLanguage: Record<string, string>,
): Promise<SpeechEngine> {
  const engine = await SpeechEngine.start(engineOptions(options, modelByLanguage));
  const status = engine.status();
  if (!status.ready) throw new Error(`The speech engine is not ready: ${status.problem ?? 'unknown reason'}`);
  return engine;
}

/**
 * Our side, cold as a user's folder run is: the engine starts (VAD, ffmpeg check, models), each
 * file is transcribed (as many at once as there are workers) and the engine closes.
 */
async function runOurs(
  model: string,
  language: string,
  entries: ManifestEntry[],
  options: SpeechBenchOptions,
): Promise<{ seconds: number; cpuSeconds: number; peakRssMiB: number; files: FileResult[] }> {
  const sampler = new MemorySampler();
  sampler.start(0.5);
  const cpuBefore = cpuSecondsWithChildren();
  const started = performance.now();
  const engine = await startEngine(options, model === defaultModel ? {} : { [language]: model });
  const files: FileResult[] = [];
  try {
    await pooled(entries.length, options.workers, async (index) => {
      const entry = entries[index];
      if (!entry) return;
      const transcript = await engine.transcribeFile(
        entry.absolutePath,
        options.detectLanguage ? {} : { language },
      );
      const hypothesis = transcriptText(transcript);
      files[index] = {
        path: entry.path,
        language,
        spontaneous: spontaneousNotes.test(entry.notes),
        detected: transcript.language,
        seconds: entry.durationSeconds,
        wer: wordErrorRate(entry.referenceText, hypothesis, language),
        hypothesis,
      };
    });
  } finally {
    await engine.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsWithChildren() - cpuBefore;
  sampler.stop();
  return { seconds, cpuSeconds, peakRssMiB: sampler.peakRssMiB, files };
}

/**
 * One model on one language's files, both sides back to back, the first of them alternating with
 * `turn`; with several passes the fastest of each side counts (accuracy is the same every pass).
 */
async function compare(
  model: string,
  language: string,
  entries: ManifestEntry[],
  options: SpeechBenchOptions,
  peerModels: Record<string, string> | undefined,
  turn: number,
): Promise<Run> {
  let ours: Awaited<ReturnType<typeof runOurs>> | undefined;
  let peer: PeerRun | undefined;
  const peerModel = peerModels?.[model];
  for (let pass = 0; pass < options.repeat; pass++) {
    const runOurSide = async () => {
      const run = await runOurs(model, language, entries, options);
      if (!ours || run.seconds < ours.seconds) ours = run;
    };
    const runPeerSide = async () => {
      if (!peerModel) return;
      const run = await runPeer({
        modelDir: peerModel,
        language,
        threads: options.workers * options.threadsPerWorker,
        beamSize: 5,
        files: entries.map((entry) => entry.absolutePath),
      });
      if (!peer || run.seconds < peer.seconds) peer = run;
    };
    if ((turn + pass) % 2 === 0) {
      await runOurSide();
      await runPeerSide();
    } else {
      await runPeerSide();
      await runOurSide();
    }
  }
  if (!ours) throw new Error('no pass ran');
  const files = ours.files.map((file, index) => {
    const entry = entries[index];
    const text = peer?.texts[index];
    return entry && text !== undefined
      ? { ...file, peer: { wer: wordErrorRate(entry.referenceText, text, language), hypothesis: text } }
      : file;
  });
  const wer = aggregateWer(files.map((file) => file.wer));
  const audioSeconds = entries.reduce((total, entry) => total + entry.durationSeconds, 0);
  const row: Row = {
    model,
    language,
    files: entries.length,
    audioSeconds: round(audioSeconds, 2),
    words: wer.referenceWords,
    wer: wer.wer,
    seconds: ours.seconds,
    cpuSeconds: ours.cpuSeconds,
    peakRssMiB: ours.peakRssMiB,
    peerWer: peer ? aggregateWer(files.flatMap((file) => (file.peer ? [file.peer.wer] : []))).wer : undefined,
    peerSeconds: peer?.seconds,
    peerCpuSeconds: peer?.cpuSeconds,
    wrongLanguage: files.filter((file) => file.detected !== language).length,
    loadAverage: loadAverage(),
  };
  if (options.baseline) {
    row.baselineWer = await cliBaselineWer(`ggml-${model}.bin`, entries, options.threadsPerWorker);
  }
  console.log(
    `${model} ${language}: WER ${percent(row.wer)} (faster-whisper ${percent(row.peerWer)}), ` +
      `${row.seconds.toFixed(2)} s (faster-whisper ${row.peerSeconds?.toFixed(2) ?? '-'} s), load ${row.loadAverage}`,
  );
  printErrors(files);
  return { rows: [row], files: files.map((file) => ({ ...file, path: `${model}:${file.path}` })) };
}

/** Every (model, language) of the plan, alternating which side goes first. */
async function measure(
  plan: { model: string; language: string; entries: ManifestEntry[] }[],
  options: SpeechBenchOptions,
  peerModels: Record<string, string> | undefined,
): Promise<Run> {
  const run: Run = { rows: [], files: [] };
  for (const [turn, item] of plan.entries()) {
    const result = await compare(item.model, item.language, item.entries, options, peerModels, turn);
    run.rows.push(...result.rows);
    run.files.push(...result.files);
  }
  return run;
}

function ratio(ours: number, peer: number | undefined): string {
  return peer ? (ours / peer).toFixed(2) : '';
}

function tableOf(rows: Row[], detect: boolean) {
  return rows.map((row) => ({
    model: row.model,
    lang: row.language,
    files: row.files,
    words: row.words,
    'WER ours': percent(row.wer),
    'WER f-w': percent(row.peerWer),
    ...(row.baselineWer === undefined ? {} : { 'WER whisper.cpp CLI': percent(row.baselineWer) }),
    's ours': row.seconds.toFixed(2),
    's f-w': row.peerSeconds?.toFixed(2) ?? '',
    'ours/f-w': ratio(row.seconds, row.peerSeconds),
    'cpu s ours': row.cpuSeconds.toFixed(1),
    'cpu s f-w': row.peerCpuSeconds?.toFixed(1) ?? '',
    'cpu ours/f-w': ratio(row.cpuSeconds, row.peerCpuSeconds),
    'cpu/audio': (row.cpuSeconds / row.audioSeconds).toFixed(3),
    'RSS MiB': row.peakRssMiB,
    ...(detect ? { 'wrong lang': row.wrongLanguage } : {}),
    load: row.loadAverage,
  }));
}

/** Files where either side made an error, with both texts, for reading (not for tuning on). */
function printErrors(files: FileResult[]): void {
  for (const file of files) {
    if (file.wer.errors === 0 && (file.peer?.wer.errors ?? 0) === 0) continue;
    console.log(
      `  ${file.path}: ours ${file.wer.errors}, f-w ${file.peer?.wer.errors ?? '-'} [${file.detected}] «${file.hypothesis}»` +
        (file.peer && file.peer.hypothesis !== file.hypothesis ? ` | f-w «${file.peer.hypothesis}»` : ''),
    );
  }
}

/**
 * The default choice per language (the English model for English, base for the others): its WER
 * against faster-whisper's on the same weights, per language and on the spontaneous clips, and the
 * total time of both.
 */
function printDefaultChoice(run: Run, options: SpeechBenchOptions, title: string): void {
  const chosen = run.rows.filter(
    (row) => row.model === (row.language === 'en' ? options.englishModel : defaultModel),
  );
  if (chosen.length === 0) return;
  // A total over the chosen rows, undefined when a row lacks the figure (no peer run).
  const total = (figure: (row: Row) => number | undefined) =>
    chosen.every((row) => figure(row) !== undefined)
      ? chosen.reduce((sum, row) => sum + (figure(row) ?? 0), 0)
      : undefined;
  const ours = total((row) => row.seconds) ?? 0;
  const peer = total((row) => row.peerSeconds);
  const oursCpu = total((row) => row.cpuSeconds) ?? 0;
  const peerCpu = total((row) => row.peerCpuSeconds);
  const files = run.files.filter((file) =>
    chosen.some((row) => file.language === row.language && file.path.startsWith(`${row.model}:`)),
  );
  const spontaneous = files.filter((file) => file.spontaneous);
  const werOf = (list: FileResult[], side: 'ours' | 'peer') =>
    aggregateWer(list.flatMap((file) => (side === 'ours' ? [file.wer] : file.peer ? [file.peer.wer] : [])))
      .wer;
  console.log(
    `${title}: default choice (en ${options.englishModel}, others ${defaultModel}): ` +
      chosen.map((row) => `${row.language} ${percent(row.wer)} vs ${percent(row.peerWer)}`).join(', ') +
      `; spontaneous (${spontaneous.length} clips) ${percent(werOf(spontaneous, 'ours'))} vs ${percent(werOf(spontaneous, 'peer'))}` +
      `; all ${percent(werOf(files, 'ours'))} vs ${percent(werOf(files, 'peer'))}` +
      `; time ${ours.toFixed(1)} s vs ${peer?.toFixed(1) ?? '-'} s (ours/f-w ${ratio(ours, peer)})` +
      `; CPU ${oursCpu.toFixed(1)} s vs ${peerCpu?.toFixed(1) ?? '-'} s (ours/f-w ${ratio(oursCpu, peerCpu)}), load ${loadAverage()}`,
  );
  if (peer !== undefined) printWerDifferences(chosen, files, spontaneous);
  for (const model of new Set(run.rows.map((row) => row.model))) {
    const ofModel = run.files.filter((file) => file.path.startsWith(`${model}:`) && file.spontaneous);
    if (ofModel.length === 0) continue;
    console.log(
      `  ${model} on the spontaneous clips: ${percent(werOf(ofModel, 'ours'))} vs faster-whisper ${percent(werOf(ofModel, 'peer'))}`,
    );
  }
}

/**
 * Per language, on the spontaneous clips and over all, our WER minus faster-whisper's with its 95 %
 * interval over the clips: a gap whose interval holds 0 is within what a different handful of
 * clips would have given.
 */
function printWerDifferences(
  chosen: readonly Row[],
  files: readonly FileResult[],
  spontaneous: readonly FileResult[],
): void {
  const points = (fraction: number) => `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(2)}`;
  const groups: [string, FileResult[]][] = [
    ...chosen.map((row): [string, FileResult[]] => [
      row.language,
      files.filter((file) => file.language === row.language),
    ]),
    ['spontaneous', [...spontaneous]],
    ['all', [...files]],
  ];
  const differences = groups.flatMap(([label, group]) => {
    const pairs = group.flatMap((file) => (file.peer ? [{ ours: file.wer, theirs: file.peer.wer }] : []));
    if (pairs.length === 0) return [];
    const { difference, low, high } = werDifference(pairs);
    return [`${label} ${points(difference)} [${points(low)}, ${points(high)}]`];
  });
  console.log(
    `  ours − faster-whisper, WER points with the 95 % interval of a paired bootstrap over the clips: ${differences.join(', ')}`,
  );
}

async function runLongRecording(engine: SpeechEngine, options: SpeechBenchOptions) {
  const recording = buildLongRecording(options.longMinutes);
  try {
    const probe = await engine.probe(recording.path);
    const sampler = new MemorySampler();
    const loadBefore = loadAverage();
    sampler.start(options.sampleSeconds);
    const cpuBefore = cpuSecondsWithChildren();
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
    const cpuSeconds = cpuSecondsWithChildren() - cpuBefore;
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
      cpuPerAudioSecond: round(cpuSeconds / probe.durationSeconds, 3),
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
      `${options.quick ? ', quick subset' : ''}; ${environment.cpus} cores (${environment.cpuModel}), load ${environment.loadAverageAtStart.join(' ')}`,
  );
  const peerModels = options.peer ? preparePeer() : undefined;

  const plan: { model: string; language: string; entries: ManifestEntry[] }[] = [];
  for (const [language, entries] of byLanguage) {
    plan.push({ model: defaultModel, language, entries });
    if (language !== 'en') continue;
    const english = new Set([options.englishModel, ...(options.tinyEnglish ? [tinyEnglishModel] : [])]);
    for (const model of english) if (model !== defaultModel) plan.push({ model, language, entries });
  }

  const quietSteal = stealMeter();
  const quiet = await measure(plan, options, peerModels);
  console.log('');
  console.table(tableOf(quiet.rows, options.detectLanguage));
  printDefaultChoice(quiet, options, 'Quiet machine');
  console.log(`CPU time taken by the host for other guests during that run (both engines): ${quietSteal()}`);

  let busy: Run | undefined;
  if (options.busyCore) {
    console.log('\nAgain, with one core kept busy by `yes > /dev/null`…');
    const loop = startBusyCore();
    try {
      busy = await measure(plan, options, peerModels);
    } finally {
      loop.stop();
    }
    const busyRows = busy.rows;
    console.table(
      quiet.rows.map((row, index) => {
        const under = busyRows[index];
        return {
          model: row.model,
          lang: row.language,
          's ours quiet': row.seconds.toFixed(2),
          's ours busy': under?.seconds.toFixed(2),
          'ours busy/quiet': under ? (under.seconds / row.seconds).toFixed(2) : '',
          's f-w quiet': row.peerSeconds?.toFixed(2) ?? '',
          's f-w busy': under?.peerSeconds?.toFixed(2) ?? '',
          'f-w busy/quiet':
            under?.peerSeconds && row.peerSeconds ? (under.peerSeconds / row.peerSeconds).toFixed(2) : '',
          'WER ours busy': percent(under?.wer),
          load: under?.loadAverage,
        };
      }),
    );
    const total = (rows: Row[], side: 'ours' | 'peer') =>
      rows.reduce((sum, row) => sum + ((side === 'ours' ? row.seconds : row.peerSeconds) ?? 0), 0);
    console.log(
      `One core busy: ours ${(total(busy.rows, 'ours') / total(quiet.rows, 'ours')).toFixed(2)}× its quiet time, ` +
        `faster-whisper ${options.peer ? (total(busy.rows, 'peer') / total(quiet.rows, 'peer')).toFixed(2) : '-'}×`,
    );
    printDefaultChoice(busy, options, 'One core busy');
  }

  let long: Awaited<ReturnType<typeof runLongRecording>> | undefined;
  if (options.longMinutes > 0) {
    console.log(`\nLong recording: about ${options.longMinutes} minutes of Sonnet 1 with pauses…`);
    const engine = await startEngine(options, {});
    try {
      long = await runLongRecording(engine, options);
    } finally {
      await engine.close();
    }
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
    `${JSON.stringify({ options, environment, quiet, busy, long, finishedLoadAverage: os.loadavg() }, null, 2)}\n`,
  );
  console.log(`Results written to ${path.relative(repoRoot, file)}`);
}

await main();
