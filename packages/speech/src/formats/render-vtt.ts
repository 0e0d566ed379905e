import type { Transcript } from '../transcript.js';
import { buildSubtitleCues } from './subtitle-cues.js';
import { formatTimestamp } from './timestamps.js';

/** WebVTT: the `WEBVTT` line, then each cue after a blank line; cue text escapes `&`, `<` and `>`. */
export function renderVtt(transcript: Pick<Transcript, 'segments'>): string {
  const cues = buildSubtitleCues(transcript).map(
    (cue) =>
      `\n${formatTimestamp(cue.startMs, '.')} --> ${formatTimestamp(cue.endMs, '.')}\n${cue.lines.map(escapeCueText).join('\n')}\n`,
  );
  return `WEBVTT\n${cues.join('')}`;
}

/** `<` would open a tag and `&` an entity; escaping `>` also keeps `-->` out of cue text. */
function escapeCueText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
