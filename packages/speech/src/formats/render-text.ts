import type { Transcript } from '../transcript.js';

/** A pause at least this long between two segments starts a new paragraph in the plain-text transcript. */
export const paragraphPauseSeconds = 2;

/**
 * Plain text: segment texts joined by spaces, a blank line where the speaker paused for
 * {@link paragraphPauseSeconds} or more, a final newline. An empty transcript is an empty string.
 */
export function renderText(transcript: Pick<Transcript, 'segments'>): string {
  const paragraphs: string[][] = [];
  let previousEnd: number | undefined;
  for (const segment of transcript.segments) {
    const text = segment.text.replace(/\s+/gu, ' ').trim();
    if (!text) continue;
    const current = paragraphs.at(-1);
    if (!current || (previousEnd !== undefined && segment.start - previousEnd >= paragraphPauseSeconds)) {
      paragraphs.push([text]);
    } else {
      current.push(text);
    }
    previousEnd = segment.end;
  }
  if (paragraphs.length === 0) return '';
  return `${paragraphs.map((paragraph) => paragraph.join(' ')).join('\n\n')}\n`;
}
