import path from 'node:path';

const maxReasonChars = 300;

/**
 * A short, safe summary of what ffmpeg or ffprobe wrote to stderr: for `details` and logs, never
 * for the user-facing message. Drops the `[mp3 @ 0x55…]` prefixes, file system paths and repeated
 * lines, keeps the most telling lines and cuts the rest.
 */
export function sanitiseFfmpegReason(stderr: string, inputPath?: string): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const rawLine of stderr.split(/\r?\n/)) {
    let line = rawLine.replace(/\[[^\]@]*@ ?0x[0-9a-f]+\]\s*/gi, '');
    if (inputPath) {
      line = line.split(`file:${inputPath}`).join('<file>');
      line = line.split(inputPath).join('<file>');
      line = line.split(path.basename(inputPath)).join('<file>');
    }
    line = line
      .replace(/(?:[A-Za-z]:)?(?:[/\\][^\s/\\:'"]+){2,}/g, '<path>')
      .replace(/\s+/g, ' ')
      .trim();
    if (!line || /^Last message repeated/i.test(line) || seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  const joined = lines.join('; ');
  return joined.length > maxReasonChars ? `${joined.slice(0, maxReasonChars - 1)}…` : joined;
}

/** ffmpeg's way of saying that `-map 0:a:0` found nothing: the input has no audio stream. */
export function saysNoAudioStream(stderr: string): boolean {
  return /Stream map '0:a:0' matches no streams|does not contain any stream|Output file #0 does not contain any stream/i.test(
    stderr,
  );
}

/** ffmpeg's way of saying that an MP4/MOV ends before its index: cut short during an upload or a copy. */
export function saysIndexMissing(stderr: string): boolean {
  return /moov atom not found/i.test(stderr);
}
