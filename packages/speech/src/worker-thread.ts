import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker thread `<name>.js` beside `moduleUrl` (the caller's import.meta.url). Built, it
 * runs the JavaScript; from the TypeScript sources (tests, tsx) the thread first registers tsx's
 * loader, which worker threads do not inherit, then imports `<name>.ts`.
 */
export function startWorkerThread(moduleUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!moduleUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, moduleUrl), options);
  // The ESM entry sits beside the CommonJS one that require.resolve finds.
  const loader = pathToFileURL(
    createRequire(moduleUrl)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const script = new URL(`./${name}.ts`, moduleUrl).href;
  return new Worker(
    `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(script)}); });`,
    { ...options, eval: true },
  );
}
