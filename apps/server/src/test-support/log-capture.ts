import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export interface CapturedLogs {
  logger: Logger;
  lines: Record<string, unknown>[];
}

/** A real pino logger whose JSON lines are kept in memory for assertions. */
export function captureLogs(level: 'debug' | 'info' | 'warn' = 'info'): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { logger: pino({ level }, sink), lines };
}
