// The speech engine: decoding, voice activity detection, whisper.cpp recognisers in worker
// threads, models and transcript formats. It knows no account, price or HTTP route.
export * from './decode/index.js';
export * from './diarization/index.js';
export * from './formats/index.js';
export * from './models/index.js';
export * from './vad/index.js';
export {
  SpeechEngine,
  type Admission,
  type EngineStatus,
  type SpeechEngineOptions,
  type StreamOptions,
  type TranscribeOptions,
} from './engine/speech-engine.js';
export {
  StreamingRecogniser,
  defaultStreamingTuning,
  type StreamingSegment,
  type StreamingStatistics,
  type StreamingTuning,
} from './streaming/streaming-recogniser.js';
export { StreamResampler } from './streaming/resampler.js';
export type { DecodingChoices } from './engine/window-recognition.js';
export { frenchMedicalCode } from './languages/fr-medical.js';
export { isKnownLanguage, languageChoices, type LanguageChoice } from './languages/language-choices.js';
export {
  RecogniserPool,
  recognitionPriority,
  type Recogniser,
  type RecognitionOutcome,
  type RecognitionRequest,
} from './recogniser/recogniser-pool.js';
export { isSpeechError, SpeechError, speechErrorCodes, type SpeechErrorCode } from './speech-error.js';
export {
  speakerNames,
  transcriptFormats,
  transcriptText,
  type Transcript,
  type TranscriptFormat,
  type TranscriptSegment,
  type TranscriptSpeaker,
  type TranscriptSpeakerTurn,
  type TranscriptWord,
} from './transcript.js';
export { assignSpeakers } from './diarization/assign-speakers.js';
export { compressionRatio } from './engine/hallucination-guards.js';
