/** What the streaming socket takes (spec §7, §9): 16 kHz mono float32 little-endian samples. */
export const streamingSampleRate = 16_000;
/** The rate the microphone is captured at before downsampling (spec §9). */
export const captureSampleRate = 48_000;
/** Samples per microphone frame sent (spec §9: capture buffer 2048 samples, 128 ms at 16 kHz). */
export const captureFrameSamples = 2048;
/** Samples per chunk of a picked file (spec §4, §9: 8000 samples, half a second). */
export const fileChunkSamples = 8000;
/** The name the capture AudioWorklet registers its processor under. */
export const captureProcessorName = 'verbatim-capture';
