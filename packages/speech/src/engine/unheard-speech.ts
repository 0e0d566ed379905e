/**
 * Voice activity detection can miss a voice it was not trained on for a whole clip (a falsetto
 * sentence peaked at 0.67 in Silero with 18 frames above 0.3: no region at all), and the recording
 * came out empty. A recording no longer than one window in which no speech was found, but some
 * frame sounded possibly like a voice (SpeechWindower.heardPossibleSpeech), is decoded whole
 * instead, and whisper's own no-speech test with the guards decides.
 *
 * This keeps a copy of the recording's start while it can still be needed: until a window is heard
 * or the recording grows past `maxSamples`.
 */
export class UnheardSpeech {
  #chunks: Float32Array[] | null = [];
  #samples = 0;

  constructor(private readonly maxSamples: number) {}

  /** Another chunk of the recording, in order (copied: the caller may reuse its buffer). */
  keep(chunk: Float32Array): void {
    if (this.#chunks === null) return;
    this.#samples += chunk.length;
    if (this.#samples > this.maxSamples) this.#chunks = null;
    else this.#chunks.push(chunk.slice());
  }

  /** Speech was found: the recording is decoded window by window. */
  heard(): void {
    this.#chunks = null;
  }

  /** At the end: the whole recording when nothing was heard in it and it fits one window, else null. */
  take(): Float32Array | null {
    const chunks = this.#chunks;
    this.#chunks = null;
    if (chunks === null || this.#samples === 0) return null;
    const whole = new Float32Array(this.#samples);
    let offset = 0;
    for (const chunk of chunks) {
      whole.set(chunk, offset);
      offset += chunk.length;
    }
    return whole;
  }
}
