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
 *
 * A speaker is active where the probability of the classes that hold it reaches `threshold`. At
 * 0.5 this is nearly the likeliest class (pyannote's own decoding); lower keeps more of the quiet
 * and overlapped speech the network is unsure of, at the price of some false alarms.
 */
export function decodePowerset(logProbabilities: Float32Array, threshold = 0.5): Uint8Array {
  const activity = new Uint8Array(WINDOW_FRAMES * LOCAL_SPEAKERS);
  const speakerProbability = new Float64Array(LOCAL_SPEAKERS);
  for (let frame = 0; frame < WINDOW_FRAMES; frame++) {
    const base = frame * POWERSET_CLASSES;
    speakerProbability.fill(0);
    let best = 0;
    for (let c = 0; c < POWERSET_CLASSES; c++) {
      const logProbability = logProbabilities[base + c] ?? -Infinity;
      if (logProbability > (logProbabilities[base + best] ?? -Infinity)) best = c;
      for (const speaker of powerset[c] ?? [])
        speakerProbability[speaker] = (speakerProbability[speaker] ?? 0) + Math.exp(logProbability);
    }
    // The likeliest class always counts, so that 0.5 never drops what argmax keeps.
    for (const speaker of powerset[best] ?? []) activity[frame * LOCAL_SPEAKERS + speaker] = 1;
    // At most two speakers at once, as the network was trained: the two most likely.
    const ranked = [0, 1, 2]
      .sort((a, b) => (speakerProbability[b] ?? 0) - (speakerProbability[a] ?? 0))
      .slice(0, 2);
    for (const speaker of ranked)
      if ((speakerProbability[speaker] ?? 0) >= threshold) activity[frame * LOCAL_SPEAKERS + speaker] = 1;
  }
  return activity;
}
