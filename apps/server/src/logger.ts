import { pino, type Logger } from 'pino';
import type { Config } from './config/config.js';

export function createLogger(level: Config['logLevel']): Logger {
  return pino({
    level,
    // Credentials must never reach the logs, whichever object they arrive in.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'headers.authorization',
        'headers.cookie',
        'password',
        '*.password',
      ],
      censor: '[redacted]',
    },
  });
}
