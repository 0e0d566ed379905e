import { SpeechError } from '../speech-error.js';

export type WhisperModelType = 'tiny' | 'base' | 'small' | 'medium' | 'large';

/** One official whisper.cpp ggml model, as published in the whisper.cpp model repository. */
export interface CatalogueModel {
  /** `base-q8_0`: what users type, and the `<name>` of `ggml-<name>.bin`. */
  name: string;
  fileName: string;
  modelType: WhisperModelType;
  /** English-only models (`.en`) transcribe nothing else and cannot detect the language. */
  englishOnly: boolean;
  /** How the weights are stored: f16 (unquantised) or a ggml quantisation. */
  weights: 'f16' | 'q5_0' | 'q5_1' | 'q8_0';
  /**
   * Size of the published file in bytes. Approximate (from the repository's listing), except for
   * base-q8_0 and tiny.en-q8_0, whose exact sizes we checked on real files.
   */
  approximateBytes: number;
  description: string;
}

/** Names follow the config's rule, which also keeps them safe inside file names and URLs. */
export const modelNamePattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const modelFileName = (name: string): string => `ggml-${name}.bin`;

/** `ggml-base-q8_0.bin` → `base-q8_0`; undefined for anything that is not a model file name. */
export function modelNameOfFile(fileName: string): string | undefined {
  const match = /^ggml-(.+)\.bin$/.exec(fileName);
  const name = match?.[1];
  return name && modelNamePattern.test(name) ? name : undefined;
}

const typeDescriptions: Record<WhisperModelType, string> = {
  tiny: 'Whisper tiny (39 M parameters): fastest, least accurate',
  base: 'Whisper base (74 M parameters): fast, good English, weak in some languages',
  small: 'Whisper small (244 M parameters): much better in most languages, ~3x slower than base',
  medium: 'Whisper medium (769 M parameters): accurate, slow on CPU',
  large: 'Whisper large (1.55 B parameters): most accurate, very slow on CPU',
};

const weightDescriptions: Record<CatalogueModel['weights'], string> = {
  f16: '16-bit weights',
  q8_0: '8-bit quantised (near f16 accuracy, half the size)',
  q5_1: '5-bit quantised',
  q5_0: '5-bit quantised',
};

/**
 * `[name, approximate bytes]` in the order of whisper.cpp's models/download-ggml-model.sh. Sizes are
 * the published ones (Hugging Face listing of ggerganov/whisper.cpp) to within a few kilobytes.
 */
const published: ReadonlyArray<readonly [string, number]> = [
  ['tiny', 77_691_713],
  ['tiny.en', 77_704_715],
  ['tiny-q5_1', 32_152_673],
  ['tiny.en-q5_1', 32_166_155],
  ['tiny-q8_0', 43_537_433],
  ['tiny.en-q8_0', 43_550_778],
  ['base', 147_951_465],
  ['base.en', 147_964_211],
  ['base-q5_1', 59_707_625],
  ['base.en-q5_1', 59_721_011],
  ['base-q8_0', 81_768_585],
  ['base.en-q8_0', 81_781_811],
  ['small', 487_601_967],
  ['small.en', 487_614_201],
  ['small-q5_1', 190_085_487],
  ['small.en-q5_1', 190_098_681],
  ['small-q8_0', 264_464_607],
  ['small.en-q8_0', 264_477_561],
  ['medium', 1_533_763_059],
  ['medium.en', 1_533_774_781],
  ['medium-q5_0', 539_212_467],
  ['medium.en-q5_0', 539_225_533],
  ['medium-q8_0', 823_369_779],
  ['medium.en-q8_0', 823_382_461],
  ['large-v1', 3_094_623_691],
  ['large-v2', 3_094_623_691],
  ['large-v2-q5_0', 1_080_732_091],
  ['large-v2-q8_0', 1_656_129_691],
  ['large-v3', 3_095_033_483],
  ['large-v3-q5_0', 1_081_140_203],
  ['large-v3-turbo', 1_624_555_275],
  ['large-v3-turbo-q5_0', 574_041_195],
  ['large-v3-turbo-q8_0', 874_188_075],
];

function catalogueEntry(name: string, approximateBytes: number): CatalogueModel {
  const [, size = '', english, variant, weights = 'f16'] =
    /^(tiny|base|small|medium|large)(\.en)?(-v[0-9](?:-turbo)?)?(?:-(q5_0|q5_1|q8_0))?$/.exec(name) ?? [];
  const modelType = size as WhisperModelType;
  const turbo = variant?.endsWith('-turbo') ?? false;
  const what = turbo
    ? 'Whisper large-v3 turbo (809 M parameters): near large-v3 accuracy, about as fast as medium'
    : typeDescriptions[modelType] + (variant ? ` (${variant.slice(1)})` : '');
  return {
    name,
    fileName: modelFileName(name),
    modelType,
    englishOnly: english === '.en',
    weights: weights as CatalogueModel['weights'],
    approximateBytes,
    description: `${what}; ${english ? 'English only' : 'multilingual'}; ${weightDescriptions[weights as CatalogueModel['weights']]}`,
  };
}

export const modelCatalogue: readonly CatalogueModel[] = published.map(([name, bytes]) =>
  catalogueEntry(name, bytes),
);

const byName = new Map(modelCatalogue.map((model) => [model.name, model]));

export function findCatalogueModel(name: string): CatalogueModel | undefined {
  return byName.get(name);
}

/** The catalogue entry, or a SpeechError naming the closest official names. */
export function requireCatalogueModel(name: string): CatalogueModel {
  const model = byName.get(name);
  if (model) return model;
  const close = closeModelNames(name);
  throw new SpeechError(
    'INVALID_MODEL',
    `unknown model "${name}": ${close.length ? `did you mean ${close.join(', ')}?` : 'see `verbatim models list` for the official names'}`,
    { name, closeNames: close },
  );
}

/** Official names a typo most likely meant: shared prefix first, then edit distance. */
export function closeModelNames(name: string, limit = 5): string[] {
  const wanted = name
    .trim()
    .toLowerCase()
    .replace(/^ggml-/, '')
    .replace(/\.bin$/, '');
  const scored = modelCatalogue.map((model) => {
    const distance = editDistance(wanted, model.name);
    // Typing the start of a name ("large-v3-tu") is a strong hint; containing a short name ("tiny") is not.
    const related = wanted.length >= 3 && model.name.startsWith(wanted);
    return { name: model.name, score: related ? distance / 10 : distance };
  });
  const tolerance = Math.max(2, Math.floor(wanted.length / 3));
  return scored
    .filter((candidate) => candidate.score <= tolerance)
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((candidate) => candidate.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
