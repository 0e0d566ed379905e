/** What the engine produces for a recording: the shape of the JSON format and of the API answer. */
export interface TranscriptWord {
  /** Seconds from the start of the recording, to the millisecond. */
  start: number;
  end: number;
  text: string;
  /** 0–1: how sure the recogniser was of this word (mean probability of its tokens). */
  confidence: number;
  /** Who said it (`S1`, `S2`…), in a diarized transcript. */
  speaker?: string;
}

export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  text: string;
  words: TranscriptWord[];
  /** Who speaks (`S1`, `S2`…), in a diarized transcript; a segment never spans two speakers. */
  speaker?: string;
}

/** A speaker of a diarized transcript: its id (`S1`…) and the name shown (the id until renamed). */
export interface TranscriptSpeaker {
  id: string;
  name: string;
}

/** Who speaks when, as the diarization found it (turns of two speakers may overlap). */
export interface TranscriptSpeakerTurn {
  speaker: string;
  start: number;
  end: number;
}

export interface Transcript {
  /** ISO 639-1 code of the language recognised (given or detected). */
  language: string;
  /** Seconds of audio in the recording. */
  duration: number;
  segments: TranscriptSegment[];
  /** Diarized transcripts only: every speaker, in order of first appearance. */
  speakers?: TranscriptSpeaker[];
  /** Diarized transcripts only: the speaker turns, by start time. */
  speakerTurns?: TranscriptSpeakerTurn[];
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

/** The name shown for each speaker id of a diarized transcript (empty for one without speakers). */
export function speakerNames(transcript: Pick<Transcript, 'speakers'>): Map<string, string> {
  return new Map((transcript.speakers ?? []).map((speaker) => [speaker.id, speaker.name || speaker.id]));
}
