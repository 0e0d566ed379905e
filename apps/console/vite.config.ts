import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server listens on 8080 in development; in production it serves this build itself, so
// forwarding /api keeps every request same-origin in both cases.
export default defineConfig({
  plugins: [react()],
  resolve: {
    // `source` makes @verbatim/contracts resolve to its TypeScript sources: no contracts build is
    // needed for the dev server, and the bundle always matches the schemas in the repository.
    conditions: ['source', 'module', 'browser', 'development|production'],
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:8080' } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // scripts/checkFirstLoad.ts reads it to add up what the first visit loads. Screens are split by
    // route (app/lazyScreen.tsx); vendors are not split by hand, which broke the load order of
    // modules that share React (createContext undefined).
    manifest: true,
    rolldownOptions: {
      output: {
        // What the first visit needs (the entry and its static imports) in one chunk: gzip then
        // compresses it as one text (~14 KB less than as 60 small chunks) and it is one request.
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
});
