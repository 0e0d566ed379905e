import type { Transcript } from '../transcript.js';
import { buildSubtitleCues } from './subtitle-cues.js';
import { formatTimestamp } from './timestamps.js';

/** SubRip: numbered cues from 1, `00:00:01,234 --> 00:00:03,000`, a blank line between cues, a final newline. */
export function renderSrt(transcript: Pick<Transcript, 'segments'>): string {
  return buildSubtitleCues(transcript)
    .map(
      (cue, index) =>
        `${index + 1}\n${formatTimestamp(cue.startMs, ',')} --> ${formatTimestamp(cue.endMs, ',')}\n${cue.lines.join('\n')}\n`,
    )
    .join('\n');
}
