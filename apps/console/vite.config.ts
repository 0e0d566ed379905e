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
    // One bundle until more screens arrive; route-level splitting comes with them. Splitting
    // vendors by hand broke the load order of modules that share React (createContext undefined).
    chunkSizeWarningLimit: 1000,
  },
});
