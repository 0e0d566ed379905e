/**
 * pyannote segmentation-3.0 sees 10 s windows of 16 kHz audio and answers, for 589 frames of
 * 16.9 ms, a log-probability for each of 7 "powerset" classes: nobody, one of 3 local speakers
 * alone, or two of them at once. Decoding keeps the likeliest class, so a frame can have two
 * speakers: overlapped speech is kept.
 */
export const SEGMENTATION_SAMPLE_RATE = 16_000;
export const WINDOW_SAMPLES = 160_000;
export const WINDOW_FRAMES = 589;
export const LOCAL_SPEAKERS = 3;
/** Frame hop and receptive field of the network, in samples (its sincnet + pooling layers). */
export const FRAME_STEP_SAMPLES = 270;
export const FRAME_FIELD_SAMPLES = 991;
const POWERSET_CLASSES = 7;

/** Which local speakers each powerset class holds (class 0: nobody). */
const powerset: readonly (readonly number[])[] = [[], [0], [1], [2], [0, 1], [0, 2], [1, 2]];

/** Centre of frame `frame` (of a window starting at sample 0), in samples. */
export const frameCentreSample = (frame: number): number =>
  frame * FRAME_STEP_SAMPLES + FRAME_FIELD_SAMPLES / 2;

/**
 * Activity of the 3 local speakers in one window: `activity[frame * 3 + speaker]` is 1 when the
 * speaker talks in that frame. `logProbabilities` is the network's [589, 7] output for the window.
 */
export function decodePowerset(logProbabilities: Float32Array, offset = 0): Uint8Array {
  const activity = new Uint8Array(WINDOW_FRAMES * LOCAL_SPEAKERS);
  for (let frame = 0; frame < WINDOW_FRAMES; frame++) {
    const base = offset + frame * POWERSET_CLASSES;
    let best = 0;
    for (let c = 1; c < POWERSET_CLASSES; c++) {
      if ((logProbabilities[base + c] ?? -Infinity) > (logProbabilities[base + best] ?? -Infinity)) best = c;
    }
    for (const speaker of powerset[best] ?? []) activity[frame * LOCAL_SPEAKERS + speaker] = 1;
  }
  return activity;
}
