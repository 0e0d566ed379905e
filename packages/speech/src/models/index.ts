// The model part of the engine: what models exist, which are installed, which one to use, and how to
// fetch one. Re-exported by the package's index.
export { formatBytes } from './format-bytes.js';
export { inspectModelFile, type ModelFileInfo } from './ggml-model-file.js';
export {
  closeModelNames,
  findCatalogueModel,
  modelCatalogue,
  modelFileName,
  modelNameOfFile,
  modelNamePattern,
  requireCatalogueModel,
  type CatalogueModel,
  type WhisperModelType,
} from './model-catalogue.js';
export {
  isModelDownloadError,
  ModelDownloadError,
  type ModelDownloadFailure,
} from './model-download-error.js';
export {
  downloadModel,
  removeModel,
  type DownloadedModel,
  type DownloadModelOptions,
} from './model-downloader.js';
export {
  chooseModel,
  findUsableModel,
  listInstalledModels,
  type BrokenModel,
  type InstalledModel,
  type ModelChoice,
  type UsableModel,
} from './model-registry.js';
export type { WhisperHyperParameters } from './whisper-tensor-layout.js';
