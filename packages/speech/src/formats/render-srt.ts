import { buildSubtitleCues, type SubtitleSource } from './subtitle-cues.js';
import { formatTimestamp } from './timestamps.js';

/**
 * SubRip: numbered cues from 1, `00:00:01,234 --> 00:00:03,000`, a blank line between cues, a
 * final newline. In a diarized transcript each cue starts with its speaker's name: `S1: …`.
 */
export function renderSrt(transcript: SubtitleSource): string {
  return buildSubtitleCues(transcript)
    .map((cue, index) => {
      const text = cue.lines.join('\n');
      return `${index + 1}\n${formatTimestamp(cue.startMs, ',')} --> ${formatTimestamp(cue.endMs, ',')}\n${cue.speaker === undefined ? text : `${cue.speaker}: ${text}`}\n`;
    })
    .join('\n');
}
