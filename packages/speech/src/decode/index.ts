export { checkFfmpeg, type FfmpegCheck } from './check-ffmpeg.js';
export {
  decodeAudio,
  defaultDecodeTimeoutMs,
  speechSampleRate,
  type DecodeAudioOptions,
} from './decode-audio.js';
export { ffmpegBinariesFromEnv, type FfmpegBinaries } from './ffmpeg-binaries.js';
export { notAudioMessage, probeMedia, type MediaProbe, type ProbeMediaOptions } from './probe-media.js';
export {
  probeRawPcm,
  rawPcmEncodings,
  rawPcmFrameBytes,
  type RawPcmEncoding,
  type RawPcmFormat,
} from './raw-pcm.js';
