import { apiKeySecretPrefix } from '@verbatim/contracts';
import { describe, expect, it } from 'vitest';
import {
  displayedPrefixLength,
  generateApiKeySecret,
  hashApiKeySecret,
  isWellFormedApiKey,
  looksLikeApiKey,
} from './api-key-secret.js';

describe('API key secrets', () => {
  it('carry the recognisable prefix, 256 random bits and a checksum', () => {
    const { secret, prefix, hash } = generateApiKeySecret();
    expect(secret).toMatch(/^vbt_live_[A-Za-z0-9_-]{49}$/);
    expect(secret.startsWith(apiKeySecretPrefix)).toBe(true);
    // 32 random bytes are 43 base64url characters.
    expect(Buffer.from(secret.slice(9, 52), 'base64url')).toHaveLength(32);
    expect(prefix).toBe(secret.slice(0, displayedPrefixLength));
    expect(hash).toBe(hashApiKeySecret(secret));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(isWellFormedApiKey(secret)).toBe(true);
    expect(looksLikeApiKey(secret)).toBe(true);
  });

  it('are all different', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateApiKeySecret().secret));
    expect(secrets.size).toBe(1000);
  });

  it('reject a changed character, a wrong length or another prefix without a lookup', () => {
    const { secret } = generateApiKeySecret();
    const last = secret.at(-10) === 'A' ? 'B' : 'A';
    expect(isWellFormedApiKey(`${secret.slice(0, -10)}${last}${secret.slice(-9)}`)).toBe(false);
    expect(isWellFormedApiKey(secret.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${secret}A`)).toBe(false);
    expect(isWellFormedApiKey(secret.replace('vbt_live_', 'vbt_test_'))).toBe(false);
    expect(looksLikeApiKey('eyJhbGciOiJSUzI1NiJ9.e30.sig')).toBe(false);
  });
});
