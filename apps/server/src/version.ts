import { readFileSync } from 'node:fs';

/** The server package's version, read once: from src/ and dist/ alike the package.json is one level up. */
export const version: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
