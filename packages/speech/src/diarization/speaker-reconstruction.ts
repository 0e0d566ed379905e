import {
  FRAME_FIELD_SAMPLES,
  FRAME_STEP_SAMPLES,
  LOCAL_SPEAKERS,
  SEGMENTATION_SAMPLE_RATE,
  WINDOW_FRAMES,
} from './segmentation-frames.js';
import type { SpeakerTurn } from './speaker-diarizer.js';

/** One 10 s window: where it starts (in frames), what its local speakers did, who they are. */
export interface LabelledWindow {
  startFrame: number;
  /** `activity[frame * 3 + local]`, from decodePowerset. */
  activity: Uint8Array;
  /** Global speaker of each local speaker, or -1 when it was not identified. */
  speakers: readonly number[];
}

/**
 * Stitches the windows into turns on the whole recording, as pyannote's pipeline does: per frame,
 * how many people speak is the average over the windows that see it (rounded), and which ones are
 * that many speakers with the highest average activity. Overlap gives a frame two speakers.
 */
export function reconstructTurns(
  windows: readonly LabelledWindow[],
  speakerCount: number,
  durationSeconds: number,
): SpeakerTurn[] {
  const last = windows[windows.length - 1];
  if (!last || speakerCount === 0) return [];
  const frames = last.startFrame + WINDOW_FRAMES;
  const activity = new Float32Array(frames * speakerCount);
  const talking = new Float32Array(frames);
  const coverage = new Uint16Array(frames);
  for (const window of windows) {
    for (let frame = 0; frame < WINDOW_FRAMES; frame++) {
      const global = window.startFrame + frame;
      coverage[global] = (coverage[global] ?? 0) + 1;
      const seen = new Set<number>();
      for (let local = 0; local < LOCAL_SPEAKERS; local++) {
        if (!window.activity[frame * LOCAL_SPEAKERS + local]) continue;
        talking[global] = (talking[global] ?? 0) + 1;
        const speaker = window.speakers[local] ?? -1;
        // Two local speakers given the same speaker count once for it.
        if (speaker < 0 || seen.has(speaker)) continue;
        seen.add(speaker);
        activity[global * speakerCount + speaker] = (activity[global * speakerCount + speaker] ?? 0) + 1;
      }
    }
  }
  const active = new Uint8Array(frames * speakerCount);
  const order = Array.from({ length: speakerCount }, (_, speaker) => speaker);
  for (let frame = 0; frame < frames; frame++) {
    const count = Math.min(
      Math.round((talking[frame] ?? 0) / Math.max(coverage[frame] ?? 1, 1)),
      speakerCount,
    );
    if (count === 0) continue;
    const score = (speaker: number): number => activity[frame * speakerCount + speaker] ?? 0;
    order.sort((a, b) => score(b) - score(a));
    for (const speaker of order.slice(0, count))
      if (score(speaker) > 0) active[frame * speakerCount + speaker] = 1;
  }
  return framesToTurns(active, frames, speakerCount, durationSeconds);
}

const frameSeconds = FRAME_STEP_SAMPLES / SEGMENTATION_SAMPLE_RATE;
const frameCentreSeconds = (frame: number): number =>
  (frame * FRAME_STEP_SAMPLES + FRAME_FIELD_SAMPLES / 2) / SEGMENTATION_SAMPLE_RATE;

/** Runs of active frames as turns, speakers renumbered in order of first appearance. */
function framesToTurns(
  active: Uint8Array,
  frames: number,
  speakerCount: number,
  durationSeconds: number,
): SpeakerTurn[] {
  const turns: SpeakerTurn[] = [];
  for (let speaker = 0; speaker < speakerCount; speaker++) {
    let runStart = -1;
    for (let frame = 0; frame <= frames; frame++) {
      const on = frame < frames && active[frame * speakerCount + speaker] === 1;
      if (on && runStart < 0) runStart = frame;
      if (!on && runStart >= 0) {
        const start = Math.max(0, frameCentreSeconds(runStart) - frameSeconds / 2);
        const end = Math.min(durationSeconds, frameCentreSeconds(frame - 1) + frameSeconds / 2);
        if (end > start) turns.push({ speaker, start: round(start), end: round(end) });
        runStart = -1;
      }
    }
  }
  turns.sort((a, b) => a.start - b.start || a.end - b.end);
  const renumbered = new Map<number, number>();
  return turns.map((turn) => {
    if (!renumbered.has(turn.speaker)) renumbered.set(turn.speaker, renumbered.size);
    return { ...turn, speaker: renumbered.get(turn.speaker) ?? 0 };
  });
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
