import type { LiveSegmentMessage } from '@verbatim/contracts';

/** One segment of the live transcript, as the server last sent it. */
export interface TranscriptSegment {
  id: number;
  text: string;
  final: boolean;
}

/**
 * Spec §3 Transcript segment: a message with the id of the last segment replaces it; any other id
 * appends a new segment.
 */
export function applySegmentMessage(
  segments: readonly TranscriptSegment[],
  message: LiveSegmentMessage,
): TranscriptSegment[] {
  const segment = { id: message.segment, text: message.text, final: message.type === 'final' };
  const last = segments.at(-1);
  return last?.id === message.segment ? [...segments.slice(0, -1), segment] : [...segments, segment];
}

/** The text shown and copied: every segment's text followed by a newline. */
export function transcriptText(segments: readonly TranscriptSegment[]): string {
  return segments.map((segment) => `${segment.text}\n`).join('');
}
