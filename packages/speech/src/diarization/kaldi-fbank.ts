/**
 * Kaldi-style log mel filterbank features, as 3D-Speaker computed them to train CAM++
 * (torchaudio.compliance.kaldi.fbank: 80 mel bins, 25 ms frames every 10 ms, Povey window,
 * pre-emphasis 0.97, DC offset removed, power spectrum, no dither, snip_edges) on samples in
 * [-1, 1]. The caller subtracts the mean over the frames it embeds, as 3D-Speaker does.
 */
export const FBANK_BINS = 80;
export const FBANK_FRAME_SAMPLES = 400;
export const FBANK_SHIFT_SAMPLES = 160;
const FFT_SIZE = 512;
const SAMPLE_RATE = 16_000;
const PREEMPHASIS = 0.97;
const LOW_FREQUENCY = 20;
const LOG_FLOOR = 1.1920928955078125e-7; // float32 epsilon, Kaldi's floor before the log

const povey = Float64Array.from(
  { length: FBANK_FRAME_SAMPLES },
  (_, n) => (0.5 - 0.5 * Math.cos((2 * Math.PI * n) / (FBANK_FRAME_SAMPLES - 1))) ** 0.85,
);

/** Triangular filters in Kaldi's mel scale over the FFT's bins 0…255 (Nyquist excluded). */
const melFilters: ReadonlyArray<{ first: number; weights: Float64Array }> = (() => {
  const mel = (hz: number): number => 1127 * Math.log(1 + hz / 700);
  const lowMel = mel(LOW_FREQUENCY);
  const highMel = mel(SAMPLE_RATE / 2);
  const delta = (highMel - lowMel) / (FBANK_BINS + 1);
  const filters: Array<{ first: number; weights: Float64Array }> = [];
  for (let bin = 0; bin < FBANK_BINS; bin++) {
    const left = lowMel + bin * delta;
    const center = left + delta;
    const right = center + delta;
    const weights: number[] = [];
    let first = -1;
    for (let k = 0; k < FFT_SIZE / 2; k++) {
      const m = mel((k * SAMPLE_RATE) / FFT_SIZE);
      const weight =
        m > left && m < right
          ? m <= center
            ? (m - left) / (center - left)
            : (right - m) / (right - center)
          : 0;
      if (weight > 0) {
        if (first < 0) first = k;
        weights[k - first] = weight;
      } else if (first >= 0) break;
    }
    filters.push({ first: Math.max(first, 0), weights: Float64Array.from(weights, (w) => w ?? 0) });
  }
  return filters;
})();

/** Number of whole frames in `length` samples (snip_edges: no frame runs past the end). */
export function fbankFrameCount(length: number): number {
  return length < FBANK_FRAME_SAMPLES
    ? 0
    : 1 + Math.floor((length - FBANK_FRAME_SAMPLES) / FBANK_SHIFT_SAMPLES);
}

/** Features of `samples` (16 kHz, [-1, 1]): frames × 80, row-major. */
export function kaldiFbank(samples: Float32Array): Float32Array {
  const frames = fbankFrameCount(samples.length);
  const out = new Float32Array(frames * FBANK_BINS);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const power = new Float64Array(FFT_SIZE / 2);
  for (let f = 0; f < frames; f++) {
    const offset = f * FBANK_SHIFT_SAMPLES;
    let mean = 0;
    for (let n = 0; n < FBANK_FRAME_SAMPLES; n++) mean += samples[offset + n] ?? 0;
    mean /= FBANK_FRAME_SAMPLES;
    // Pre-emphasis from the last sample back, the first one against itself (Kaldi's rule).
    let previous = (samples[offset] ?? 0) - mean;
    re.fill(0);
    im.fill(0);
    for (let n = 0; n < FBANK_FRAME_SAMPLES; n++) {
      const value = (samples[offset + n] ?? 0) - mean;
      re[n] = value - PREEMPHASIS * (n === 0 ? value : previous);
      previous = value;
    }
    for (let n = 0; n < FBANK_FRAME_SAMPLES; n++) re[n] = (re[n] ?? 0) * (povey[n] ?? 0);
    fft(re, im);
    for (let k = 0; k < FFT_SIZE / 2; k++) power[k] = (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
    for (let bin = 0; bin < FBANK_BINS; bin++) {
      const filter = melFilters[bin];
      let energy = 0;
      if (filter)
        for (let i = 0; i < filter.weights.length; i++)
          energy += (filter.weights[i] ?? 0) * (power[filter.first + i] ?? 0);
      out[f * FBANK_BINS + bin] = Math.log(Math.max(energy, LOG_FLOOR));
    }
  }
  return out;
}

const bitReversed = Uint16Array.from({ length: FFT_SIZE }, (_, i) => {
  let reversed = 0;
  for (let bit = 1, value = i; bit < FFT_SIZE; bit <<= 1, value >>= 1)
    reversed = (reversed << 1) | (value & 1);
  return reversed;
});
const cosines = Float64Array.from({ length: FFT_SIZE / 2 }, (_, i) =>
  Math.cos((-2 * Math.PI * i) / FFT_SIZE),
);
const sines = Float64Array.from({ length: FFT_SIZE / 2 }, (_, i) => Math.sin((-2 * Math.PI * i) / FFT_SIZE));

/** In-place iterative radix-2 FFT of 512 points. */
function fft(re: Float64Array, im: Float64Array): void {
  for (let i = 0; i < FFT_SIZE; i++) {
    const j = bitReversed[i] ?? 0;
    if (j > i) {
      const r = re[i] ?? 0;
      re[i] = re[j] ?? 0;
      re[j] = r;
      const m = im[i] ?? 0;
      im[i] = im[j] ?? 0;
      im[j] = m;
    }
  }
  for (let size = 2; size <= FFT_SIZE; size <<= 1) {
    const half = size >> 1;
    const stride = FFT_SIZE / size;
    for (let start = 0; start < FFT_SIZE; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = cosines[k * stride] ?? 0;
        const wi = sines[k * stride] ?? 0;
        const a = start + k;
        const b = a + half;
        const br = re[b] ?? 0;
        const bi = im[b] ?? 0;
        const tr = wr * br - wi * bi;
        const ti = wr * bi + wi * br;
        re[b] = (re[a] ?? 0) - tr;
        im[b] = (im[a] ?? 0) - ti;
        re[a] = (re[a] ?? 0) + tr;
        im[a] = (im[a] ?? 0) + ti;
      }
    }
  }
}
