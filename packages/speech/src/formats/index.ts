export { formatTranscript, type FormattedTranscript } from './format-transcript.js';
export { renderJson } from './render-json.js';
export { renderSrt } from './render-srt.js';
export { paragraphPauseSeconds, renderText } from './render-text.js';
export { renderVtt } from './render-vtt.js';
export { buildSubtitleCues, subtitleLimits, type SubtitleCue, type SubtitleSource } from './subtitle-cues.js';
export { formatTimestamp } from './timestamps.js';
