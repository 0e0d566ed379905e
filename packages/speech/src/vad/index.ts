export {
  SileroVad,
  VadStream,
  VAD_FRAME_SAMPLES,
  VAD_SAMPLE_RATE,
  bundledSileroModelPath,
  type SileroVadOptions,
} from './silero-vad.js';
export {
  DEFAULT_SPEECH_DETECTOR_OPTIONS,
  ENDPOINT_SILENCE_MS,
  SpeechDetector,
  type OpenSpeechRegion,
  type SpeechDetectorOptions,
  type SpeechRegion,
} from './speech-detector.js';
export {
  CUT_SEARCH_SECONDS,
  MAX_GAP_INSIDE_WINDOW_SECONDS,
  MAX_WINDOW_SECONDS,
  PREFERRED_CUT_PAUSE_SECONDS,
  SpeechWindower,
  type SpeechWindow,
  type SpeechWindowerOptions,
  type TimeRange,
} from './speech-windows.js';
