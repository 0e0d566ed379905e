import type { Transcript, TranscriptFormat } from '../transcript.js';
import { renderJson } from './render-json.js';
import { renderSrt } from './render-srt.js';
import { renderText } from './render-text.js';
import { renderVtt } from './render-vtt.js';

export interface FormattedTranscript {
  body: string;
  /** For a Content-Type header; text formats say UTF-8 explicitly (transcripts hold é, ß, …). */
  contentType: string;
  /** Without the dot: `txt`, `json`, `srt`, `vtt`. */
  fileExtension: string;
}

/** A transcript as a downloadable file in one of the four formats. */
export function formatTranscript(transcript: Transcript, format: TranscriptFormat): FormattedTranscript {
  switch (format) {
    case 'json':
      return { body: renderJson(transcript), contentType: 'application/json', fileExtension: 'json' };
    case 'text':
      return { body: renderText(transcript), contentType: 'text/plain; charset=utf-8', fileExtension: 'txt' };
    case 'srt':
      return {
        body: renderSrt(transcript),
        contentType: 'application/x-subrip; charset=utf-8',
        fileExtension: 'srt',
      };
    case 'vtt':
      return { body: renderVtt(transcript), contentType: 'text/vtt; charset=utf-8', fileExtension: 'vtt' };
  }
}
