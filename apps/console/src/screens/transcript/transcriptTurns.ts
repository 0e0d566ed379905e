import type { FileTranscript } from '@verbatim/contracts';

/** Words the recogniser was less sure of than this (0–1) are marked on the transcript page. */
export const lowConfidenceThreshold = 0.6;

/** A word of the page, numbered across the whole transcript so the one being played can be found. */
export interface PageWord {
  index: number;
  start: number;
  end: number;
  text: string;
  confidence: number;
}

/** What the page shows as one block: a speaker's turn, or a segment when the file was not diarized. */
export interface PageTurn {
  /** The speaker id (`S1`…), or null without diarization. */
  speaker: string | null;
  start: number;
  end: number;
  words: PageWord[];
}

/**
 * The transcript as the page reads it: consecutive segments of one speaker joined into a turn;
 * without diarization each segment is its own block. A segment without word timings counts as
 * one word, so that it can still be clicked and highlighted.
 */
export function pageTurnsOf(transcript: Pick<FileTranscript, 'segments'>): PageTurn[] {
  const turns: PageTurn[] = [];
  let index = 0;
  for (const segment of transcript.segments) {
    const speaker = segment.speaker ?? null;
    const words = (
      segment.words.length > 0
        ? segment.words
        : [{ start: segment.start, end: segment.end, text: segment.text.trim(), confidence: 1 }]
    ).map((word) => ({
      index: index++,
      start: word.start,
      end: word.end,
      text: word.text.trim(),
      confidence: word.confidence,
    }));
    const last = turns.at(-1);
    if (speaker !== null && last?.speaker === speaker) {
      last.words.push(...words);
      last.end = segment.end;
    } else {
      turns.push({ speaker, start: segment.start, end: segment.end, words });
    }
  }
  return turns;
}

/**
 * The index of the word being played at `time`: the last word started by then, while it lasts or
 * until the next begins (a pause keeps the word just said lit); -1 before the first word.
 */
export function wordAt(words: readonly PageWord[], time: number): number {
  let low = 0;
  let high = words.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((words[middle]?.start ?? Infinity) <= time) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** `S1` → its name, when it has one other than its id. */
export function speakerNameOf(speakers: FileTranscript['speakers'], id: string): string {
  return speakers?.find((speaker) => speaker.id === id)?.name ?? id;
}

/** The transcript as text to copy: one paragraph per block, `Name: …` when diarized. */
export function transcriptText(turns: readonly PageTurn[], speakers: FileTranscript['speakers']): string {
  return turns
    .map((turn) => {
      const text = turn.words.map((word) => word.text).join(' ');
      return turn.speaker === null ? text : `${speakerNameOf(speakers, turn.speaker)}: ${text}`;
    })
    .join('\n\n');
}

/** 75.4 → `1:15`, 3725 → `1:02:05`: a turn's start as a player shows it. */
export function formatTimestamp(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(whole % 60)}` : `${minutes}:${pad(whole % 60)}`;
}
