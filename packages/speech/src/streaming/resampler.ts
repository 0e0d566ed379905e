/** Beyond this many filter phases (rates whose ratio reduces badly) the taps are computed per sample. */
const maxTabulatedPhases = 4096;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Zero crossings of the sinc on each side of an output sample, at the output's rate. */
const zeroCrossings = 16;
/** The pass band ends this far below the lower Nyquist frequency, where the Blackman window's transition band starts. */
const cutoffFraction = 0.92;

/**
 * Band-limited resampling of a mono stream, chunk by chunk: a windowed-sinc (Blackman) low-pass at
 * the lower of the two Nyquist frequencies, evaluated at each output instant. Downsampling
 * therefore filters out what the lower rate cannot carry (no aliasing) instead of dropping
 * samples. The last few milliseconds wait for the next chunk (the filter needs samples on both
 * sides); `flush` ends the stream with silence after it.
 */
export class StreamResampler {
  readonly #step: number;
  readonly #cutoff: number;
  /** Half the filter's length, in input samples. */
  readonly #halfWidth: number;
  #input: Float32Array = new Float32Array(0);
  /** Stream index of `#input[0]`. */
  #inputStart = 0;
  /**
   * The position of the next output sample, in input samples, is `#position / #denominator`: the
   * rates' ratio reduced, so positions are exact and only `#denominator` filter phases exist.
   */
  #position = 0;
  readonly #numerator: number;
  readonly #denominator: number;
  /** The filter's taps for each phase, computed once (when the phases are few enough). */
  readonly #taps: Float32Array[] | undefined;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!(fromRate > 0 && toRate > 0)) throw new RangeError('Sample rates must be positive');
    this.#step = fromRate / toRate;
    this.#cutoff = (cutoffFraction * Math.min(1, toRate / fromRate)) / 2;
    this.#halfWidth = Math.ceil(zeroCrossings * Math.max(1, this.#step));
    const divisor = gcd(fromRate, toRate);
    this.#numerator = fromRate / divisor;
    this.#denominator = toRate / divisor;
    this.#taps =
      this.#denominator <= maxTabulatedPhases
        ? Array.from({ length: this.#denominator }, (_, phase) =>
            Float32Array.from({ length: 2 * this.#halfWidth }, (_, tap) =>
              this.#kernel(tap - this.#halfWidth + 1 - phase / this.#denominator),
            ),
          )
        : undefined;
  }

  get passthrough(): boolean {
    return this.fromRate === this.toRate;
  }

  push(samples: Float32Array): Float32Array {
    if (this.passthrough) return samples;
    const joined = new Float32Array(this.#input.length + samples.length);
    joined.set(this.#input);
    joined.set(samples, this.#input.length);
    this.#input = joined;
    return this.#drain(false);
  }

  /** The end of the stream: the samples still waiting, filtered against silence. */
  flush(): Float32Array {
    if (this.passthrough) return new Float32Array(0);
    return this.#drain(true);
  }

  #drain(final: boolean): Float32Array {
    const inputEnd = this.#inputStart + this.#input.length;
    const out: number[] = [];
    for (;;) {
      const whole = Math.floor(this.#position / this.#denominator);
      if (final ? whole >= inputEnd : whole + this.#halfWidth >= inputEnd) break;
      out.push(this.#sampleAt(whole, this.#position % this.#denominator));
      this.#position += this.#numerator;
    }
    // Keep only what later output samples still need.
    const next = Math.floor(this.#position / this.#denominator);
    const keepFrom = Math.max(this.#inputStart, Math.min(next, inputEnd) - this.#halfWidth);
    this.#input = this.#input.slice(keepFrom - this.#inputStart);
    this.#inputStart = keepFrom;
    return Float32Array.from(out);
  }

  /** The output sample at input position `whole + phase / denominator`. */
  #sampleAt(whole: number, phase: number): number {
    const taps = this.#taps?.[phase];
    const first = whole - this.#halfWidth + 1;
    let sum = 0;
    for (let tap = 0; tap < 2 * this.#halfWidth; tap += 1) {
      const at = first + tap - this.#inputStart;
      if (at < 0 || at >= this.#input.length) continue;
      const weight = taps ? (taps[tap] ?? 0) : this.#kernel(first + tap - whole - phase / this.#denominator);
      sum += (this.#input[at] ?? 0) * weight;
    }
    return sum;
  }

  #kernel(distance: number): number {
    const x = 2 * this.#cutoff * distance;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    const phase = (distance + this.#halfWidth) / (2 * this.#halfWidth);
    const window = 0.42 - 0.5 * Math.cos(2 * Math.PI * phase) + 0.08 * Math.cos(4 * Math.PI * phase);
    return 2 * this.#cutoff * sinc * window;
  }
}
