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
      })),
    })),
  };
  return JSON.stringify(plain);
}
