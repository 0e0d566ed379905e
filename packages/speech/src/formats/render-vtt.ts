import { buildSubtitleCues, type SubtitleSource } from './subtitle-cues.js';
import { formatTimestamp } from './timestamps.js';

/**
 * WebVTT: the `WEBVTT` line, then each cue after a blank line; cue text escapes `&`, `<` and `>`.
 * In a diarized transcript each cue is a voice span: `<v S1>…</v>` (or the speaker's name).
 */
export function renderVtt(transcript: SubtitleSource): string {
  const cues = buildSubtitleCues(transcript).map((cue) => {
    const text = cue.lines.map(escapeCueText).join('\n');
    const body = cue.speaker === undefined ? text : `<v ${escapeCueText(cue.speaker)}>${text}</v>`;
    return `\n${formatTimestamp(cue.startMs, '.')} --> ${formatTimestamp(cue.endMs, '.')}\n${body}\n`;
  });
  return `WEBVTT\n${cues.join('')}`;
}

/** `<` would open a tag and `&` an entity; escaping `>` also keeps `-->` out of cue text. */
function escapeCueText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
