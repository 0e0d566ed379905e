/**
 * The microphone's AudioWorklet (spec §9): mixes the input to mono, downsamples it from the
 * context's rate (48 kHz) to 16 kHz through a low-pass filter, and posts frames of
 * {@link captureFrameSamples} float samples to the page, which sends them to the socket as they are.
 * Runs in the AudioWorkletGlobalScope, bundled on its own (imported with `?worker&url`).
 */
import { captureFrameSamples, captureProcessorName, streamingSampleRate } from './audioFormat';
import { StreamingResampler } from './resampler';

// The AudioWorkletGlobalScope's globals; TypeScript's DOM library does not describe that scope.
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly resampler = new StreamingResampler(sampleRate, streamingSampleRate);
  private frame = new Float32Array(captureFrameSamples);
  private filled = 0;
  private stopped = false;

  constructor() {
    super();
    // 'flush' from the page: send what the filter still holds and what the frame has, then stop.
    this.port.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data !== 'flush' || this.stopped) return;
      this.stopped = true;
      this.collect(this.resampler.flush());
      if (this.filled > 0) this.post(this.frame.slice(0, this.filled));
      this.port.postMessage('flushed');
    };
  }

  process(inputs: Float32Array[][]): boolean {
    if (this.stopped) return false;
    const channels = inputs[0] ?? [];
    const first = channels[0];
    if (!first) return true;
    let mono = first;
    if (channels.length > 1) {
      mono = new Float32Array(first.length);
      for (const channel of channels) {
        for (let i = 0; i < mono.length; i += 1)
          mono[i] = (mono[i] ?? 0) + (channel[i] ?? 0) / channels.length;
      }
    }
    this.collect(this.resampler.process(mono));
    return true;
  }

  private collect(samples: Float32Array): void {
    let offset = 0;
    while (offset < samples.length) {
      const taken = Math.min(samples.length - offset, captureFrameSamples - this.filled);
      this.frame.set(samples.subarray(offset, offset + taken), this.filled);
      this.filled += taken;
      offset += taken;
      if (this.filled === captureFrameSamples) {
        this.post(this.frame);
        this.frame = new Float32Array(captureFrameSamples);
        this.filled = 0;
      }
    }
  }

  /** Hands the frame's buffer over to the page without copying. */
  private post(frame: Float32Array): void {
    this.port.postMessage(frame, [frame.buffer]);
  }
}

registerProcessor(captureProcessorName, CaptureProcessor);
