// Speaker diarization: who speaks when in a whole recording. Re-exported by the package's index.
export {
  diarizationModelFileName,
  diarizationModelNames,
  embeddingModelName,
  segmentationModelName,
} from './diarization-models.js';
export { defaultDiarizationTuning, type DiarizationTuning } from './onnx-speaker-diarizer.js';
export {
  openSpeakerDiarizer,
  type DiarizationOptions,
  type SpeakerDiarizer,
  type SpeakerDiarizerOptions,
  type SpeakerTurn,
} from './speaker-diarizer.js';
