import { escapeHtml } from './providers/crm-provider.js';

/** What a CRM note or task says about a transcript. */
export interface CrmTranscript {
  /** A submitted file's File ID or a transcription job's id. */
  id: string;
  fileName: string;
  /** When the recording was transcribed. */
  date: Date;
  /** null: not known. */
  language: string | null;
  durationSeconds: number | null;
  text: string;
  /** The transcript in the console or the API; null when it has no page. */
  url: string | null;
}

/**
 * Where deliveries read transcripts from: the transcript storage of submitted files and
 * transcription jobs. Answers only transcripts of `accountId` that are done; undefined otherwise
 * (another account's transcript is answered exactly like a missing one).
 */
export interface TranscriptSource {
  find(accountId: string, transcriptId: string): Promise<CrmTranscript | undefined>;
}

/** The HTML body of a note or task: the transcript's facts, a link back, then its text cut to `maxChars`. */
export function transcriptBody(transcript: CrmTranscript, maxChars: number): string {
  const facts = [
    ['Transcript', transcript.fileName],
    ['Date', transcript.date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC'],
    ['Language', transcript.language ?? 'unknown'],
    [
      'Duration',
      transcript.durationSeconds === null ? 'unknown' : formatDuration(transcript.durationSeconds),
    ],
  ]
    .map(([label, value]) => `<strong>${escapeHtml(label ?? '')}:</strong> ${escapeHtml(value ?? '')}`)
    .join('<br>');
  const link = transcript.url ? `<br><a href="${escapeHtml(transcript.url)}">Open the transcript</a>` : '';
  const head = `<p>${facts}${link}</p>`;
  const cutNotice = `<p><em>The transcript is longer than this record allows; the rest is ${
    transcript.url ? 'at the link above' : 'in Verbatim'
  }.</em></p>`;
  const whole = `${head}<p>${paragraphs(transcript.text)}</p>`;
  if (whole.length <= maxChars) return whole;
  // The longest start of the text whose escaped form fits (escaping lengthens text unevenly).
  const cut = (keep: number) =>
    `${head}<p>${paragraphs(transcript.text.slice(0, keep).trimEnd())}…</p>${cutNotice}`;
  let low = 0;
  let high = transcript.text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (cut(middle).length <= maxChars) low = middle;
    else high = middle - 1;
  }
  const body = cut(low);
  // Only a limit smaller than the facts themselves gets here cut mid-way.
  return body.length <= maxChars ? body : body.slice(0, maxChars);
}

function paragraphs(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

/** 1:02:03, or 4:05 under an hour. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
