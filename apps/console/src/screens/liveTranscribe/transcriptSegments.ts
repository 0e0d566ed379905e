import type { LiveTranscriptSegment } from '@verbatim/contracts';

/** The text shown and copied: every segment's text followed by a newline. */
export function transcriptText(segments: readonly LiveTranscriptSegment[]): string {
  return segments.map((segment) => `${segment.text}\n`).join('');
}
