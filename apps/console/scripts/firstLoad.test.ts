import { describe, expect, it } from 'vitest';
import { type BuildManifest, firstLoadFiles, htmlScripts, lazyChunkFiles } from './firstLoad.js';

const manifest: BuildManifest = {
  'index.html': { file: 'assets/index.js', imports: ['_vendor.js'], dynamicImports: ['src/Home.tsx'] },
  '_vendor.js': { file: 'assets/vendor.js', imports: ['_shared.js'] },
  '_shared.js': { file: 'assets/shared.js', imports: ['_vendor.js'] },
  'src/Home.tsx': { file: 'assets/Home.js', imports: ['_shared.js', '_heavy.js'] },
  '_heavy.js': { file: 'assets/heavy.js' },
  'style.css': { file: 'assets/style.css' },
};

describe('first load', () => {
  it('reads the module scripts and preloads of index.html, not its styles', () => {
    const html = `<script type="module" crossorigin src="/assets/runtime.js"></script>
      <script type="module" crossorigin src="/assets/index.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/vendor.js">
      <link rel="stylesheet" crossorigin href="/assets/style.css">`;
    expect(htmlScripts(html)).toEqual(['assets/runtime.js', 'assets/index.js', 'assets/vendor.js']);
  });

  it('counts what index.html loads and every chunk it imports statically, not those loaded by import()', () => {
    expect(firstLoadFiles(manifest, ['assets/index.js']).sort()).toEqual([
      'assets/index.js',
      'assets/shared.js',
      'assets/vendor.js',
    ]);
  });

  it('names what a dynamic import adds to what is loaded', () => {
    expect(
      lazyChunkFiles(manifest, 'src/Home.tsx', ['assets/index.js', 'assets/vendor.js', 'assets/shared.js']),
    ).toEqual(['assets/Home.js', 'assets/heavy.js']);
  });
});
