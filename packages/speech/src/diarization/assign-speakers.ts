import type { Transcript, TranscriptSegment, TranscriptSpeakerTurn, TranscriptWord } from '../transcript.js';
import type { SpeakerTurn } from './speaker-diarizer.js';

interface Span {
  start: number;
  end: number;
}

/** Seconds of [a] that [b] covers. */
function overlap(a: Span, b: Span): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

/** Seconds between a span and a turn; 0 when they touch or overlap. */
function distance(a: Span, b: Span): number {
  return Math.max(0, b.start - a.end, a.start - b.end);
}

/** Seconds each speaker's turns cover of `span` (a speaker's own overlapping turns counted once each). */
function coverage(span: Span, turns: readonly SpeakerTurn[]): Map<number, number> {
  const covered = new Map<number, number>();
  for (const turn of turns) {
    const seconds = overlap(span, turn);
    if (seconds > 0) covered.set(turn.speaker, (covered.get(turn.speaker) ?? 0) + seconds);
  }
  return covered;
}

/** The speaker covering most of `span`; with none covering it, the speaker of the nearest turn. */
function mainSpeaker(span: Span, turns: readonly SpeakerTurn[]): number | undefined {
  let best: number | undefined;
  let bestSeconds = 0;
  for (const [speaker, seconds] of coverage(span, turns)) {
    if (seconds > bestSeconds) {
      best = speaker;
      bestSeconds = seconds;
    }
  }
  if (best !== undefined) return best;
  let nearest: SpeakerTurn | undefined;
  for (const turn of turns) {
    if (!nearest || distance(span, turn) < distance(span, nearest)) nearest = turn;
  }
  return nearest?.speaker;
}

/**
 * The speaker of one word: the segment's main speaker while that speaker's turns cover at least
 * half of the word (overlapped speech keeps the main speaker's words: Whisper transcribes the
 * dominant voice), else the speaker covering most of it, else the nearest turn's.
 */
function wordSpeaker(word: Span, segmentSpeaker: number, turns: readonly SpeakerTurn[]): number {
  const covered = coverage(word, turns);
  const length = word.end - word.start;
  const mainSeconds = covered.get(segmentSpeaker) ?? 0;
  if (mainSeconds > 0 && mainSeconds >= length / 2) return segmentSpeaker;
  // A word of no length (its timing collapsed) inside the main speaker's turn has coverage 0.
  if (
    length === 0 &&
    turns.some(
      (turn) => turn.speaker === segmentSpeaker && word.start >= turn.start && word.start <= turn.end,
    )
  ) {
    return segmentSpeaker;
  }
  return mainSpeaker(word, turns) ?? segmentSpeaker;
}

interface Labelled {
  segment: TranscriptSegment;
  speaker: number;
}

/** Cuts a segment where the speaker of its words changes; words never split. */
function splitBySpeaker(segment: TranscriptSegment, turns: readonly SpeakerTurn[]): Labelled[] {
  const segmentSpeaker = mainSpeaker(segment, turns) ?? 0;
  if (segment.words.length === 0) return [{ segment, speaker: segmentSpeaker }];
  const runs: { speaker: number; words: TranscriptWord[] }[] = [];
  for (const word of segment.words) {
    const speaker = wordSpeaker(word, segmentSpeaker, turns);
    const last = runs.at(-1);
    if (last?.speaker === speaker) last.words.push(word);
    else runs.push({ speaker, words: [word] });
  }
  if (runs.length === 1) return [{ segment, speaker: runs[0]?.speaker ?? segmentSpeaker }];
  // Scripts written without spaces (Chinese, Japanese…) join their words without them.
  const separator = segment.text.includes(' ') ? ' ' : '';
  return runs.map((run) => {
    const first = run.words[0] as TranscriptWord;
    const last = run.words.at(-1) as TranscriptWord;
    return {
      speaker: run.speaker,
      segment: {
        id: segment.id,
        start: first.start,
        end: last.end,
        text: run.words.map((word) => word.text).join(separator),
        words: run.words,
      },
    };
  });
}

const roundMs = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Labels a transcript with the speakers of a diarization: each word gets the speaker of the turn
 * it falls in (see {@link wordSpeaker}; a word outside every turn gets the nearest turn's
 * speaker), segments are cut where the speaker changes so that none spans two speakers, and
 * speakers are named `S1`, `S2`… in order of first appearance in the words (speakers heard only
 * where no word was recognised come after, in order of their first turn). With no turn at all,
 * everything is said by S1.
 */
export function assignSpeakers(transcript: Transcript, turns: readonly SpeakerTurn[]): Transcript {
  const ordered = [...turns].filter((turn) => turn.end > turn.start).sort((a, b) => a.start - b.start);
  const labelled = [...transcript.segments]
    .sort((a, b) => a.start - b.start)
    .flatMap((segment) => splitBySpeaker(segment, ordered));

  const idOf = new Map<number, string>();
  const name = (speaker: number) => {
    let id = idOf.get(speaker);
    if (id === undefined) {
      id = `S${idOf.size + 1}`;
      idOf.set(speaker, id);
    }
    return id;
  };
  for (const { segment, speaker } of labelled) {
    if (segment.words.length > 0 || segment.text.trim() !== '') name(speaker);
  }
  for (const turn of ordered) name(turn.speaker);
  if (idOf.size === 0) name(0);

  const segments = labelled.map(({ segment, speaker }, index): TranscriptSegment => {
    const id = name(speaker);
    return {
      ...segment,
      id: index,
      speaker: id,
      words: segment.words.map((word) => ({ ...word, speaker: id })),
    };
  });
  const speakerTurns: TranscriptSpeakerTurn[] = ordered.map((turn) => ({
    speaker: name(turn.speaker),
    start: roundMs(turn.start),
    end: roundMs(turn.end),
  }));
  const speakers = [...idOf.values()].map((id) => ({ id, name: id }));
  return { ...transcript, segments, speakers, speakerTurns };
}
