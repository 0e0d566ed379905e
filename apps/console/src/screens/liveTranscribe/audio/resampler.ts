/**
 * A streaming sample-rate converter for one channel: band-limited interpolation with a
 * Kaiser-windowed sinc low-pass (polyphase, one kernel per fractional position). Downsampling
 * 48 kHz to 16 kHz keeps speech up to ~7 kHz and removes what would fold back below 8 kHz, where
 * dropping two samples of three would alias everything between 8 and 24 kHz into the speech band.
 *
 * Used inside the capture AudioWorklet (no DOM, no imports beyond this file's own code).
 */
export class StreamingResampler {
  private readonly inRate: number;
  private readonly outRate: number;
  /** Kernel half-width, in input samples: the output lags the input by this much. */
  private readonly halfWidth: number;
  private readonly cutoff: number;
  private readonly kernels = new Map<number, Float32Array>();
  /** Input not yet consumed, starting with `halfWidth` samples of silence before the first. */
  private pending: Float32Array;
  private pendingLength: number;
  /** Position of the next output sample in `pending`, in 1/outRate of an input sample. */
  private nextPosition: number;

  constructor(inRate: number, outRate: number, { zeroCrossings = 24 }: { zeroCrossings?: number } = {}) {
    if (!(Number.isInteger(inRate) && inRate > 0 && Number.isInteger(outRate) && outRate > 0)) {
      throw new RangeError(`sample rates must be positive integers (got ${inRate} → ${outRate})`);
    }
    this.inRate = inRate;
    this.outRate = outRate;
    // Cut-off in cycles per input sample: below the lower Nyquist frequency, leaving room for the
    // window's transition band so that what remains above it is attenuated by > 60 dB.
    this.cutoff = (0.5 * Math.min(inRate, outRate) * 0.9) / inRate;
    this.halfWidth = Math.ceil(zeroCrossings / (2 * this.cutoff));
    this.pending = new Float32Array(this.halfWidth + 4096);
    this.pendingLength = this.halfWidth;
    this.nextPosition = this.halfWidth * outRate;
  }

  /** Output samples for `input`; the last `halfWidth` input samples wait for what follows. */
  process(input: Float32Array): Float32Array {
    this.append(input);
    return this.drain();
  }

  /** The output still held back, as if the input ended with silence. */
  flush(): Float32Array {
    this.append(new Float32Array(this.halfWidth));
    return this.drain();
  }

  private append(input: Float32Array): void {
    const needed = this.pendingLength + input.length;
    if (needed > this.pending.length) {
      const grown = new Float32Array(Math.max(needed, this.pending.length * 2));
      grown.set(this.pending.subarray(0, this.pendingLength));
      this.pending = grown;
    }
    this.pending.set(input, this.pendingLength);
    this.pendingLength = needed;
  }

  private drain(): Float32Array {
    const { outRate, inRate, halfWidth } = this;
    const available = Math.max(
      0,
      Math.floor(((this.pendingLength - halfWidth) * outRate - this.nextPosition - 1) / inRate) + 1,
    );
    const output = new Float32Array(available);
    for (let n = 0; n < available; n += 1) {
      const centre = Math.floor(this.nextPosition / outRate);
      const kernel = this.kernelAt(this.nextPosition - centre * outRate);
      // kernel[j] weighs pending[centre - halfWidth + 1 + j].
      const first = centre - halfWidth + 1;
      let sum = 0;
      for (let j = 0; j < kernel.length; j += 1) sum += (this.pending[first + j] ?? 0) * (kernel[j] ?? 0);
      output[n] = sum;
      this.nextPosition += inRate;
    }
    // Keep only the input the next output sample still needs.
    const firstNeeded = Math.max(0, Math.floor(this.nextPosition / outRate) - halfWidth + 1);
    this.pending.copyWithin(0, firstNeeded, this.pendingLength);
    this.pendingLength -= firstNeeded;
    this.nextPosition -= firstNeeded * outRate;
    return output;
  }

  /** The taps for an output sample `fraction`/outRate of an input sample after its centre sample. */
  private kernelAt(fraction: number): Float32Array {
    const cached = this.kernels.get(fraction);
    if (cached) return cached;
    const { halfWidth, cutoff } = this;
    const offset = fraction / this.outRate;
    const kernel = new Float32Array(2 * halfWidth);
    let sum = 0;
    for (let j = 0; j < kernel.length; j += 1) {
      // Distance from the output position to input sample (centre - halfWidth + 1 + j).
      const distance = offset + halfWidth - 1 - j;
      const tap = 2 * cutoff * sinc(2 * cutoff * distance) * kaiser(distance / halfWidth, kaiserBeta);
      kernel[j] = tap;
      sum += tap;
    }
    // Unity gain at 0 Hz for every phase, so a constant stays constant.
    for (let j = 0; j < kernel.length; j += 1) kernel[j] = (kernel[j] ?? 0) / sum;
    // Positions advance by inRate modulo outRate: at most outRate / gcd(inRate, outRate) kernels.
    this.kernels.set(fraction, kernel);
    return kernel;
  }
}

/** β of the Kaiser window: ~80 dB stop-band attenuation. */
const kaiserBeta = 8;

function sinc(x: number): number {
  if (x === 0) return 1;
  const angle = Math.PI * x;
  return Math.sin(angle) / angle;
}

/** The Kaiser window at `x` in [-1, 1], zero outside. */
function kaiser(x: number, beta: number): number {
  if (Math.abs(x) >= 1) return 0;
  return besselI0(beta * Math.sqrt(1 - x * x)) / besselI0(beta);
}

/** Modified Bessel function of the first kind, order 0 (power series; converges fast for β ≤ 20). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const quarterSquare = (x * x) / 4;
  for (let k = 1; k < 64; k += 1) {
    term *= quarterSquare / (k * k);
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}
