import { afterEach, describe, expect, it } from 'vitest';
import { wrongAddressOf } from './publicAddress';

function pageAt(url: string, publicUrl: string | undefined) {
  document.head.querySelector('meta[name="verbatim-public-url"]')?.remove();
  if (publicUrl !== undefined) {
    const meta = document.createElement('meta');
    meta.name = 'verbatim-public-url';
    meta.content = publicUrl;
    document.head.append(meta);
  }
  const parsed = new URL(url);
  return {
    origin: parsed.origin,
    pathname: parsed.pathname,
    search: parsed.search,
    hash: parsed.hash,
  } as Location;
}

afterEach(() => document.head.querySelector('meta[name="verbatim-public-url"]')?.remove());

describe('wrongAddressOf', () => {
  it('finds nothing wrong at PUBLIC_URL, or when the server named none', () => {
    expect(
      wrongAddressOf(document, pageAt('http://localhost:8080/home', 'http://localhost:8080')),
    ).toBeUndefined();
    expect(
      wrongAddressOf(document, pageAt('https://speech.example.com/', 'https://speech.example.com/')),
    ).toBeUndefined();
    expect(wrongAddressOf(document, pageAt('http://127.0.0.1:8080/home', undefined))).toBeUndefined();
    expect(wrongAddressOf(document, pageAt('http://127.0.0.1:8080/home', 'not a url'))).toBeUndefined();
  });

  it('names PUBLIC_URL and the same page there when the console runs elsewhere', () => {
    expect(
      wrongAddressOf(
        document,
        pageAt('http://192.168.1.5:8080/login?next=%2Fhome#top', 'http://localhost:8080'),
      ),
    ).toEqual({
      publicUrl: 'http://localhost:8080',
      publicPageUrl: 'http://localhost:8080/login?next=%2Fhome#top',
      openedAt: 'http://192.168.1.5:8080',
    });
    expect(
      wrongAddressOf(document, pageAt('http://localhost:9090/', 'http://localhost:8080'))?.openedAt,
    ).toBe('http://localhost:9090');
  });
});
