import { speakerNames, type Transcript } from '../transcript.js';

/** A pause at least this long between two segments starts a new paragraph in the plain-text transcript. */
export const paragraphPauseSeconds = 2;

/**
 * Plain text: segment texts joined by spaces, a blank line where the speaker paused for
 * {@link paragraphPauseSeconds} or more, a final newline. In a diarized transcript every turn is a
 * paragraph of its own, starting with the speaker's name (`S1: …`). An empty transcript is an
 * empty string.
 */
export function renderText(transcript: Pick<Transcript, 'segments' | 'speakers'>): string {
  const names = speakerNames(transcript);
  const paragraphs: { speaker: string | undefined; texts: string[] }[] = [];
  let previousEnd: number | undefined;
  for (const segment of transcript.segments) {
    const text = segment.text.replace(/\s+/gu, ' ').trim();
    if (!text) continue;
    const current = paragraphs.at(-1);
    const paused = previousEnd !== undefined && segment.start - previousEnd >= paragraphPauseSeconds;
    if (!current || paused || current.speaker !== segment.speaker) {
      paragraphs.push({ speaker: segment.speaker, texts: [text] });
    } else {
      current.texts.push(text);
    }
    previousEnd = segment.end;
  }
  if (paragraphs.length === 0) return '';
  const rendered = paragraphs.map(({ speaker, texts }) => {
    const body = texts.join(' ');
    return speaker === undefined ? body : `${names.get(speaker) ?? speaker}: ${body}`;
  });
  return `${rendered.join('\n\n')}\n`;
}
