// Speaker diarization: who speaks when in a whole recording. Re-exported by the package's index.
export {
  downloadDiarizationModel,
  type DownloadDiarizationModelOptions,
  type DownloadedDiarizationModel,
} from './download-diarization-model.js';
export { inspectDiarizationModel, type DiarizationModelFileInfo } from './diarization-model-file.js';
export {
  diarizationCatalogue,
  findDiarizationModel,
  type DiarizationCatalogueModel,
  type DiarizationModelName,
  diarizationModelFileName,
  diarizationModelNames,
  embeddingModelName,
  segmentationModelName,
} from './diarization-models.js';
export {
  defaultDiarizationTuning,
  OnnxSpeakerDiarizer,
  speakerBounds,
  type DiarizationTuning,
  type RecordingAnalysis,
} from './onnx-speaker-diarizer.js';
export {
  openSpeakerDiarizer,
  type DiarizationOptions,
  type SpeakerDiarizer,
  type SpeakerDiarizerOptions,
  type SpeakerTurn,
} from './speaker-diarizer.js';
