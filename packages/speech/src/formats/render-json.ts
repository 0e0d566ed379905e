import type { Transcript } from '../transcript.js';

/**
 * Compact JSON of the Transcript structure. Fields are copied one by one so that nothing a caller
 * attached to the objects (internal ids, raw tokens) ends up in a customer's file.
 */
export function renderJson(transcript: Transcript): string {
  const plain: Transcript = {
    language: transcript.language,
    duration: transcript.duration,
    segments: transcript.segments.map((segment) => ({
      id: segment.id,
      start: segment.start,
      end: segment.end,
      text: segment.text,
      words: segment.words.map((word) => ({
        start: word.start,
        end: word.end,
        text: word.text,
        confidence: word.confidence,
        ...(word.speaker !== undefined ? { speaker: word.speaker } : {}),
      })),
      ...(segment.speaker !== undefined ? { speaker: segment.speaker } : {}),
    })),
    ...(transcript.speakers
      ? { speakers: transcript.speakers.map((speaker) => ({ id: speaker.id, name: speaker.name })) }
      : {}),
    ...(transcript.speakerTurns
      ? {
          speakerTurns: transcript.speakerTurns.map((turn) => ({
            speaker: turn.speaker,
            start: turn.start,
            end: turn.end,
          })),
        }
      : {}),
  };
  return JSON.stringify(plain);
}
