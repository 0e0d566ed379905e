import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The part of Vite's build manifest (`build.manifest`) the first-load figure needs. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}
export type BuildManifest = Record<string, ManifestChunk>;

/** The budget for the JavaScript a first visit downloads, gzipped. */
export const firstLoadBudgetBytes = 250 * 1024;

/** The scripts index.html loads itself: module scripts and module preloads, as `assets/x.js`. */
export function htmlScripts(html: string): string[] {
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  return tags
    .filter((tag) => tag.startsWith('<script') || /rel="modulepreload"/.test(tag))
    .map((tag) => /(?:src|href)="\/?([^"]+\.js)"/.exec(tag)?.[1])
    .filter((file): file is string => file !== undefined);
}

/**
 * The JavaScript files a first visit loads before anything renders: what index.html loads and,
 * through static imports, every chunk those import. Chunks reached only by dynamic `import()`
 * (screens, the signed-in chrome, a language's strings, the captcha) are left out: they load when used.
 */
export function firstLoadFiles(manifest: BuildManifest, roots: readonly string[]): string[] {
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const key = keyOfFile.get(file);
    for (const imported of (key && manifest[key]?.imports) || []) {
      const importedFile = manifest[imported]?.file;
      if (importedFile) visit(importedFile);
    }
  };
  for (const root of roots) visit(root);
  return [...files].filter((file) => file.endsWith('.js'));
}

/** The chunk a dynamic import of `source` (a manifest key, e.g. `src/i18n/en.json`) loads, with its static imports. */
export function lazyChunkFiles(manifest: BuildManifest, source: string, loaded: readonly string[]): string[] {
  const file = manifest[source]?.file;
  if (!file) return [];
  return firstLoadFiles(manifest, [file]).filter((each) => !loaded.includes(each));
}

/** Bytes of `file` gzipped at zlib's default level, as servers usually compress. */
export function gzipBytes(distDir: string, file: string): number {
  return gzipSync(readFileSync(join(distDir, file))).byteLength;
}
