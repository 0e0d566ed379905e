import type { DiarizationRequest } from '@verbatim/contracts';
import {
  assignSpeakers,
  decodeAudio,
  openSpeakerDiarizer,
  type MediaProbe,
  type RawPcmFormat,
  type SpeakerDiarizer,
  type SpeakerTurn,
  type Transcript,
} from '@verbatim/speech';

/** A recording to transcribe: its file, its probe, and the format of its bytes if it is headerless PCM. */
export interface LabelledRecording {
  filePath: string;
  probe: MediaProbe;
  rawPcm?: RawPcmFormat;
}

/** 16 kHz mono float32 of the whole recording: what the diarizer reads. */
async function decodeWhole(recording: LabelledRecording, signal?: AbortSignal): Promise<Float32Array> {
  const chunks: Float32Array[] = [];
  let length = 0;
  for await (const chunk of decodeAudio(recording.filePath, {
    expectedDurationSeconds: recording.probe.durationSeconds,
    ...(recording.rawPcm ? { rawPcm: recording.rawPcm } : {}),
    ...(signal ? { signal } : {}),
  })) {
    chunks.push(chunk);
    length += chunk.length;
  }
  const samples = new Float32Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    samples.set(chunk, offset);
    offset += chunk.length;
  }
  return samples;
}

/**
 * Who speaks when, beside the transcription of a recording: the diarization networks are loaded
 * once per process, at the first diarized request (a process that never diarizes never pays for
 * them). The recording is decoded a second time for the diarizer while the speech engine decodes
 * and transcribes it, so the engine stays untouched and both run at once; the words then get
 * their speakers (assignSpeakers).
 */
export class SpeakerLabelling {
  #diarizer: Promise<SpeakerDiarizer> | undefined;

  constructor(private readonly modelsDir: string) {}

  /**
   * The diarizer, loaded at first use. Without its models: SpeechError SPEECH_UNAVAILABLE naming
   * `verbatim models download …`, asked again next time (the models may have arrived since).
   */
  ready(): Promise<SpeakerDiarizer> {
    this.#diarizer ??= openSpeakerDiarizer(this.modelsDir).catch((error: unknown) => {
      this.#diarizer = undefined;
      throw error;
    });
    return this.#diarizer;
  }

  /**
   * Runs `transcribe` and, with a diarization request, the diarization of the same recording at
   * the same time; answers the transcript labelled with speakers. The diarizer is loaded (or its
   * missing models reported) before any transcription starts.
   */
  async transcribe(
    recording: LabelledRecording,
    diarization: DiarizationRequest | undefined,
    signal: AbortSignal | undefined,
    transcribe: () => Promise<Transcript>,
  ): Promise<Transcript> {
    if (!diarization) return transcribe();
    const diarizer = await this.ready();
    const turns = async (): Promise<SpeakerTurn[]> => {
      const samples = await decodeWhole(recording, signal);
      return diarizer.diarize(samples, { ...diarization, ...(signal ? { signal } : {}) });
    };
    const [transcript, found] = await Promise.all([transcribe(), turns()]);
    return assignSpeakers(transcript, found);
  }

  async close(): Promise<void> {
    const diarizer = this.#diarizer;
    this.#diarizer = undefined;
    if (diarizer) await (await diarizer.catch(() => undefined))?.close();
  }
}
