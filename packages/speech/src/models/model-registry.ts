import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isSpeechError } from '../speech-error.js';
import { inspectModelFile, type ModelFileInfo } from './ggml-model-file.js';
import { findCatalogueModel, modelFileName, modelNameOfFile } from './model-catalogue.js';

interface InstalledFile {
  /** `base-q8_0` for `ggml-base-q8_0.bin`. */
  name: string;
  path: string;
  /** Size on disk (0 when the file cannot even be opened). */
  bytes: number;
}

/** A model file whose whole layout checked out: whisper.cpp will load it. */
export interface UsableModel extends InstalledFile {
  info: ModelFileInfo;
  problem?: undefined;
}

/** A `ggml-*.bin` file in the folder that whisper.cpp would refuse, and why. */
export interface BrokenModel extends InstalledFile {
  info?: undefined;
  problem: string;
}

export type InstalledModel = UsableModel | BrokenModel;

/** The models the engine may choose from: a default plus per-language overrides. */
export interface ModelChoice {
  defaultModel: string;
  modelByLanguage: Record<string, string>;
}

/**
 * Every `ggml-<name>.bin` in the folder, checked, sorted by name. A bad file is listed with its
 * problem, never thrown; a missing folder has no models. Partial downloads (`.part`) are not listed.
 */
export async function listInstalledModels(modelsDir: string): Promise<InstalledModel[]> {
  let entries: string[];
  try {
    entries = await readdir(modelsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const names = entries.map(modelNameOfFile).filter((name): name is string => name !== undefined);
  const models: InstalledModel[] = [];
  // One file at a time: each check is a few hundred small reads, and the disk is shared with decoding.
  for (const name of names.sort()) models.push(await inspectInstalled(modelsDir, name));
  return models;
}

/** The named model if its file is present and valid; undefined when missing or broken. */
export async function findUsableModel(modelsDir: string, name: string): Promise<UsableModel | undefined> {
  const model = await inspectInstalled(modelsDir, name);
  return model.info ? model : undefined;
}

async function inspectInstalled(modelsDir: string, name: string): Promise<InstalledModel> {
  const filePath = path.join(modelsDir, modelFileName(name));
  try {
    const info = await inspectModelFile(filePath);
    return { name, path: filePath, bytes: info.bytes, info };
  } catch (error) {
    if (!isSpeechError(error)) throw error;
    const reason = typeof error.details?.reason === 'string' ? error.details.reason : error.message;
    return { name, path: filePath, bytes: await sizeOf(filePath), problem: reason };
  }
}

async function sizeOf(filePath: string): Promise<number> {
  return stat(filePath).then(
    (stats) => stats.size,
    () => 0,
  );
}

/**
 * Which installed model transcribes `language` (undefined: detect it), in this order:
 *  1. the per-language choice (`modelByLanguage[language]`), when it is installed and valid;
 *  2. the default model, when installed and valid;
 *  3. otherwise (the default is missing, broken, or English-only for another language) the installed
 *     multilingual model closest in size to the default, so the operator's speed/accuracy trade-off
 *     holds as well as it can;
 *  4. for `en` only, an installed English-only model, likewise closest in size.
 * An English-only (`.en`) model is only ever chosen for `en`: it cannot detect a language and
 * transcribes anything else as English gibberish. Undefined when nothing fits: the engine is unavailable.
 */
export function chooseModel(
  language: string | undefined,
  choice: ModelChoice,
  installed: readonly InstalledModel[],
): UsableModel | undefined {
  const lang = language?.toLowerCase().split('-')[0];
  const fits = (model: InstalledModel | undefined): model is UsableModel =>
    model?.info !== undefined && (model.info.multilingual || lang === 'en');
  const byName = (name: string | undefined) => installed.find((model) => model.name === name);

  const perLanguage = lang === undefined ? undefined : byName(choice.modelByLanguage[lang]);
  if (fits(perLanguage)) return perLanguage;
  const fallback = byName(choice.defaultModel);
  if (fits(fallback)) return fallback;

  const targetBytes =
    findCatalogueModel(choice.defaultModel)?.approximateBytes ??
    findCatalogueModel('base-q8_0')?.approximateBytes ??
    0;
  const closest = (candidates: UsableModel[]) =>
    candidates.sort(
      (a, b) =>
        Math.abs(a.bytes - targetBytes) - Math.abs(b.bytes - targetBytes) || (a.name < b.name ? -1 : 1),
    )[0];
  const usable = installed.filter((model): model is UsableModel => model.info !== undefined);
  const multilingual = closest(usable.filter((model) => model.info.multilingual));
  if (multilingual) return multilingual;
  return lang === 'en' ? closest(usable.filter((model) => !model.info.multilingual)) : undefined;
}
