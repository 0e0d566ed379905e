import path from 'node:path';
import {
  diarizationCatalogue,
  downloadDiarizationModel,
  downloadModel,
  findDiarizationModel,
  inspectDiarizationModel,
  findCatalogueModel,
  formatBytes,
  isModelDownloadError,
  isSpeechError,
  listInstalledModels,
  modelCatalogue,
  removeModel,
  requireCatalogueModel,
  type InstalledModel,
} from '@verbatim/speech';
import { SingleBar } from 'cli-progress';
import type { Config } from '../../config/config.js';

export type SpeechModelsConfig = Pick<
  Config['speech'],
  'modelsDir' | 'defaultModel' | 'modelByLanguage' | 'downloadBaseUrl' | 'autoDownload'
>;

export const modelsUsage = `  models list                 official speech models, which are installed, which one is used
  models download <name>…     download models (resumes an interrupted download)
  models remove <name>        delete an installed model`;

/** A command line that cannot be run as written. */
export class ModelsUsageError extends Error {}

/** The command ran but could not do its job (unknown model, network, bad file): exit code 1. */
export class ModelsCommandError extends Error {}

export interface ModelsCliOutput {
  print: (text: string) => void;
  /** Where the progress bar goes; a terminal gets a live bar, anything else a line per 10 %. */
  progress: NodeJS.WritableStream & { isTTY?: boolean };
  signal?: AbortSignal;
}

/** `verbatim models …`. */
export async function runModelsCommand(
  speech: SpeechModelsConfig,
  args: string[],
  output: ModelsCliOutput,
): Promise<void> {
  const [action, ...rest] = args;
  try {
    switch (action) {
      case 'list':
        if (rest.length > 0) throw new ModelsUsageError('usage: models list');
        return await listModels(speech, output.print);
      case 'download':
        if (rest.length === 0) throw new ModelsUsageError('usage: models download <name>…');
        for (const name of rest)
          await (findDiarizationModel(name)
            ? downloadDiarization(speech, name, output)
            : download(speech, name, output));
        return;
      case 'remove': {
        const name = rest[0];
        if (!name || rest.length !== 1) throw new ModelsUsageError(`usage: models ${action} <name>`);
        return await remove(speech, name, output.print);
      }
      default:
        throw new ModelsUsageError(action ? `unknown models command "${action}"` : 'models needs a command');
    }
  } catch (error) {
    if (isModelDownloadError(error) || isSpeechError(error)) throw new ModelsCommandError(error.message);
    throw error;
  }
}

/** What each installed model is used for: `default`, `en`, `fr`. */
function rolesOf(speech: SpeechModelsConfig, name: string): string[] {
  const roles = name === speech.defaultModel ? ['default'] : [];
  for (const [language, model] of Object.entries(speech.modelByLanguage))
    if (model === name) roles.push(`for ${language}`);
  return roles;
}

async function listModels(speech: SpeechModelsConfig, print: (text: string) => void): Promise<void> {
  const installed = new Map(
    (await listInstalledModels(speech.modelsDir)).map((model) => [model.name, model]),
  );
  const perLanguage = Object.entries(speech.modelByLanguage)
    .map(([language, model]) => `${language}=${model}`)
    .join(', ');
  print(`Models folder: ${speech.modelsDir}`);
  print(`Default model: ${speech.defaultModel}${perLanguage ? `; per language: ${perLanguage}` : ''}`);
  print('');
  const rows: string[][] = [[' ', 'name', 'size', 'languages', 'status']];
  const statusOf = (model: InstalledModel | undefined, name: string) => {
    const roles = rolesOf(speech, name);
    const state = !model
      ? roles.length
        ? 'NOT INSTALLED'
        : ''
      : model.problem
        ? `BROKEN: ${model.problem}`
        : 'installed';
    return [state, ...roles].filter(Boolean).join(', ');
  };
  for (const entry of modelCatalogue) {
    const model = installed.get(entry.name);
    rows.push([
      model?.info ? '*' : '',
      entry.name,
      model ? formatBytes(model.bytes) : `~${formatBytes(entry.approximateBytes)}`,
      entry.englishOnly ? 'English only' : 'multilingual',
      statusOf(model, entry.name),
    ]);
  }
  // Files the catalogue does not know (a fine-tuned model, a renamed copy) are listed too.
  for (const model of installed.values()) {
    if (findCatalogueModel(model.name)) continue;
    const languages = model.info ? (model.info.multilingual ? 'multilingual' : 'English only') : '?';
    rows.push([
      model.info ? '*' : '',
      model.name,
      formatBytes(model.bytes),
      languages,
      statusOf(model, model.name),
    ]);
  }
  // Models named in the configuration that are neither official nor present.
  for (const name of new Set([speech.defaultModel, ...Object.values(speech.modelByLanguage)])) {
    if (!findCatalogueModel(name) && !installed.has(name))
      rows.push(['', name, '-', '?', statusOf(undefined, name)]);
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  for (const row of rows)
    print(
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    );
  print('');
  print('Speaker diarization (diarize=true needs both):');
  for (const entry of diarizationCatalogue) {
    const file = path.join(speech.modelsDir, entry.fileName);
    const state = await inspectDiarizationModel(file, entry.name).then(
      (info) => ({ mark: '*', size: formatBytes(info.bytes), status: 'installed' }),
      (error: unknown) =>
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? { mark: '', size: `~${formatBytes(entry.approximateBytes)}`, status: 'NOT INSTALLED' }
          : {
              mark: '',
              size: '?',
              status: `BROKEN: ${error instanceof Error ? error.message : String(error)}`,
            },
    );
    print(`${state.mark.padEnd(1)}  ${entry.name}  ${state.size}  ${state.status}`);
  }
  print('');
  print('* installed and valid. Sizes with ~ are the published, approximate sizes.');
  print('Download one with: verbatim models download <name>');
}

/** What both downloads (Whisper models and diarization networks) say as they start and go on. */
function reportDownload(
  output: ModelsCliOutput,
  progress: ReturnType<typeof progressReporter>,
  approximateBytes: number,
) {
  return {
    onStart: ({ url, resumingFrom, total }: { url: string; resumingFrom: number; total?: number | null }) => {
      if (resumingFrom > 0)
        output.print(`Resuming the earlier download from ${formatBytes(resumingFrom)} (${url})`);
      else output.print(`From ${url}`);
      progress.start(resumingFrom, total ?? approximateBytes);
    },
    onProgress: (received: number) => progress.update(received),
  };
}

async function download(speech: SpeechModelsConfig, name: string, output: ModelsCliOutput): Promise<void> {
  const entry = requireCatalogueModel(name);
  output.print(`Downloading ${name} (~${formatBytes(entry.approximateBytes)}) into ${speech.modelsDir}`);
  const progress = progressReporter(output);
  const result = await downloadModel({
    name,
    baseUrl: speech.downloadBaseUrl,
    modelsDir: speech.modelsDir,
    signal: output.signal,
    ...reportDownload(output, progress, entry.approximateBytes),
  }).finally(() => progress.stop());
  const { info } = result;
  if (result.alreadyInstalled) {
    output.print(`${name} is already installed: ${result.path}`);
    return;
  }
  output.print(
    `Installed ${name}: ${formatBytes(result.bytes)}, Whisper ${info.modelType}, ` +
      `${info.multilingual ? 'multilingual' : 'English only'}, ${info.weightType} weights, ${info.tensorCount} tensors checked → ${result.path}`,
  );
  const roles = rolesOf(speech, name);
  if (roles.length === 0)
    output.print(
      `To use it, set SPEECH_MODEL=${name} (or SPEECH_MODEL_EN / SPEECH_MODEL_BY_LANGUAGE) and restart.`,
    );
}

/** A diarization network from the sherpa-onnx releases (SPEECH_MODELS_URL is for Whisper models only). */
async function downloadDiarization(
  speech: SpeechModelsConfig,
  name: string,
  output: ModelsCliOutput,
): Promise<void> {
  const entry = findDiarizationModel(name);
  if (!entry) return;
  output.print(`Downloading ${name} (~${formatBytes(entry.approximateBytes)}) into ${speech.modelsDir}`);
  const progress = progressReporter(output);
  const result = await downloadDiarizationModel({
    name,
    modelsDir: speech.modelsDir,
    signal: output.signal,
    ...reportDownload(output, progress, entry.approximateBytes),
  }).finally(() => progress.stop());
  if (result.alreadyInstalled) {
    output.print(`${name} is already installed: ${result.path}`);
    return;
  }
  output.print(
    `Installed ${name}: ${formatBytes(result.info.bytes)}, ` +
      `${result.info.verifiedBy === 'checksum' ? 'checksum verified' : 'checked by running it (checksum not in the catalogue)'} → ${result.path}`,
  );
}

interface ProgressReporter {
  start(received: number, total: number): void;
  update(received: number): void;
  stop(): void;
}

/** A live bar (MB, speed, time left) on a terminal; a line every 10 % elsewhere (logs, CI, tests). */
function progressReporter(output: ModelsCliOutput): ProgressReporter {
  const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);
  let total = 0;
  let startedAt = 0;
  let startedFrom = 0;
  const speed = (received: number) => {
    const seconds = (performance.now() - startedAt) / 1000;
    return seconds > 0 ? ((received - startedFrom) / 1e6 / seconds).toFixed(1) : '0.0';
  };
  if (output.progress.isTTY) {
    const bar = new SingleBar({
      stream: output.progress,
      format: '{bar} {percentage}% | {received}/{totalMb} MB | {speed} MB/s | {eta_formatted} left',
      barsize: 30,
      hideCursor: true,
      etaBuffer: 50,
    });
    let running = false;
    return {
      start(received, expected) {
        total = expected;
        startedAt = performance.now();
        startedFrom = received;
        bar.start(total, received, {
          received: megabytes(received),
          totalMb: megabytes(total),
          speed: '0.0',
        });
        running = true;
      },
      update(received) {
        bar.update(Math.min(received, total), { received: megabytes(received), speed: speed(received) });
      },
      stop() {
        if (running) bar.stop();
        running = false;
      },
    };
  }
  let nextTenth = 1;
  return {
    start(received, expected) {
      total = expected;
      startedAt = performance.now();
      startedFrom = received;
      nextTenth = Math.floor((received / total) * 10) + 1;
    },
    update(received) {
      if (total <= 0 || received < (nextTenth * total) / 10) return;
      nextTenth = Math.floor((received / total) * 10) + 1;
      output.print(
        `  ${Math.min(100, Math.floor((received / total) * 100))}%  ${megabytes(received)}/${megabytes(total)} MB  ${speed(received)} MB/s`,
      );
    },
    stop() {},
  };
}

async function remove(
  speech: SpeechModelsConfig,
  name: string,
  print: (text: string) => void,
): Promise<void> {
  const removed = await removeModel(speech.modelsDir, name);
  if (!removed) throw new ModelsCommandError(`${name} is not installed in ${speech.modelsDir}`);
  print(`Removed ${name} from ${speech.modelsDir}`);
  const roles = rolesOf(speech, name);
  if (roles.length)
    print(
      `Note: ${name} is configured (${roles.join(', ')}); the engine falls back to another installed model.`,
    );
}
