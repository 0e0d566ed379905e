/**
 * The tail of a PCM stream that may still be needed, as a list of chunks. The owner drops what it no longer needs, so memory follows the retained span, not the
 * length of the recording.
 */
export class RetainedAudio {
  private chunks: Float32Array[] = [];
  /** Stream index of the first sample of `chunks[0]`. */
  private firstSample = 0;
  private held = 0;

  /** Samples currently held. */
  get heldSamples(): number {
    return this.held;
  }

  /** Stream index of the first sample still held. */
  get startSample(): number {
    return this.firstSample;
  }

  /** Stream index one past the last sample appended. */
  get endSample(): number {
    return this.firstSample + this.held;
  }

  /** Keeps a copy: the caller may reuse its buffer, or pass a view into a much larger one. */
  append(chunk: Float32Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk.slice());
    this.held += chunk.length;
  }

  /** A copy of the samples [start, end) of the stream; they must still be held. */
  slice(start: number, end: number): Float32Array {
    if (start < this.firstSample || end > this.endSample || start > end) {
      throw new RangeError(
        `Samples [${start}, ${end}) are not held (held: [${this.firstSample}, ${this.endSample}))`,
      );
    }
    const out = new Float32Array(end - start);
    let chunkStart = this.firstSample;
    for (const chunk of this.chunks) {
      const chunkEnd = chunkStart + chunk.length;
      if (chunkEnd > start && chunkStart < end) {
        const from = Math.max(start, chunkStart) - chunkStart;
        const to = Math.min(end, chunkEnd) - chunkStart;
        out.set(chunk.subarray(from, to), chunkStart + from - start);
      }
      if (chunkEnd >= end) break;
      chunkStart = chunkEnd;
    }
    return out;
  }

  /** Forgets every sample before `sample`. */
  dropBefore(sample: number): void {
    let drop = Math.min(sample, this.endSample) - this.firstSample;
    while (drop > 0) {
      const first = this.chunks[0];
      if (!first) break;
      if (first.length <= drop) {
        this.chunks.shift();
        this.firstSample += first.length;
        this.held -= first.length;
        drop -= first.length;
      } else {
        // Copy the rest so that the dropped part of a long chunk is freed.
        this.chunks[0] = first.slice(drop);
        this.firstSample += drop;
        this.held -= drop;
        drop = 0;
      }
    }
  }
}
