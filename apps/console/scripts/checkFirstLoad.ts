// Run after `vite build` (npm run build): prints the console's first-load JavaScript, gzipped, and
// fails the build above the budget, so that a static import of a heavy screen or library into what
// every visit loads is caught where it is made.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BuildManifest,
  firstLoadBudgetBytes,
  firstLoadFiles,
  gzipBytes,
  htmlScripts,
  lazyChunkFiles,
} from './firstLoad.js';

const distDir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as BuildManifest;
const firstLoad = firstLoadFiles(manifest, htmlScripts(readFileSync(join(distDir, 'index.html'), 'utf8')));
const sizeOf = (files: readonly string[]) => files.reduce((sum, file) => sum + gzipBytes(distDir, file), 0);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const total = sizeOf(firstLoad);

for (const file of firstLoad) console.log(`  ${kib(gzipBytes(distDir, file)).padStart(9)}  ${file}`);
console.log(
  `First load: ${kib(total)} of JavaScript gzipped in ${firstLoad.length} files (budget ${kib(firstLoadBudgetBytes)})`,
);
// Loaded next, in parallel, before the first screen shows: for information, not in the budget.
for (const [what, source] of [
  ['English strings', 'src/i18n/en.json'],
  ['French strings', 'src/i18n/fr.json'],
  ['signed-in chrome', 'src/chrome/AppLayout.tsx'],
] as const) {
  console.log(`  then ${what}: ${kib(sizeOf(lazyChunkFiles(manifest, source, firstLoad)))}`);
}
if (total > firstLoadBudgetBytes) {
  console.error('The first load is over budget: load the screen or library that grew it with import().');
  process.exit(1);
}
