import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenSealer } from './token-sealer.js';

describe('TokenSealer', () => {
  const sealer = new TokenSealer(randomBytes(32));

  it('opens what it sealed, and never shows the token in the sealed form', () => {
    const sealed = sealer.seal('pat-na1-secret-token', 'int_1');
    expect(sealed).not.toContain('secret');
    expect(sealed).toMatch(/^v1\./);
    expect(sealer.open(sealed, 'int_1')).toBe('pat-na1-secret-token');
  });

  it('uses a fresh IV each time', () => {
    expect(sealer.seal('same', 'int_1')).not.toBe(sealer.seal('same', 'int_1'));
  });

  it('refuses another context, another key and an altered value', () => {
    const sealed = sealer.seal('token', 'int_1');
    expect(() => sealer.open(sealed, 'int_2')).toThrow();
    expect(() => new TokenSealer(randomBytes(32)).open(sealed, 'int_1')).toThrow();
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[2] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[2] = ciphertext.toString('base64url');
    expect(() => sealer.open(parts.join('.'), 'int_1')).toThrow();
    expect(() => sealer.open('plain', 'int_1')).toThrow('not a sealed token');
  });

  it('needs a 256-bit key', () => {
    expect(() => new TokenSealer(randomBytes(16))).toThrow('32 bytes');
  });
});
