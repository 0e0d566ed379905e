/** Whole milliseconds from seconds: every renderer rounds once, here, so that times never drift. */
export function toMilliseconds(seconds: number): number {
  return Number.isFinite(seconds) ? Math.max(0, Math.round(seconds * 1000)) : 0;
}

/**
 * `HH:MM:SS,mmm` (SRT, separator `,`) or `HH:MM:SS.mmm` (WebVTT, separator `.`). Hours have at least
 * two digits and grow beyond 99 rather than wrap.
 */
export function formatTimestamp(milliseconds: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(milliseconds));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  const millis = total % 1000;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${separator}${pad(millis, 3)}`;
}

function pad(value: number, digits: number): string {
  return String(value).padStart(digits, '0');
}
