/** What the engine produces for a recording: the shape of the JSON format and of the API answer. */
export interface TranscriptWord {
  /** Seconds from the start of the recording, to the millisecond. */
  start: number;
  end: number;
  text: string;
  /** 0–1: how sure the recogniser was of this word (mean probability of its tokens). */
  confidence: number;
}

export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  text: string;
  words: TranscriptWord[];
}

export interface Transcript {
  /** ISO 639-1 code of the language recognised (given or detected). */
  language: string;
  /** Seconds of audio in the recording. */
  duration: number;
  segments: TranscriptSegment[];
}

export const transcriptFormats = ['json', 'text', 'srt', 'vtt'] as const;
export type TranscriptFormat = (typeof transcriptFormats)[number];

/** The whole text of a transcript, segments joined by single spaces. */
export function transcriptText(transcript: Pick<Transcript, 'segments'>): string {
  return transcript.segments
    .map((segment) => segment.text.trim())
    .filter(Boolean)
    .join(' ');
}
