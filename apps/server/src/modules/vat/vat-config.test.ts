import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.js';

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
}

describe('loadConfig: seller and VAT', () => {
  it('sells from France under the product name, and never calls VIES by default', () => {
    const config = loadConfig({ PRODUCT_NAME: 'Talkative' });
    expect(config.seller).toEqual({
      name: 'Talkative',
      addressLines: [],
      country: 'FR',
      vatNumber: null,
      email: null,
    });
    expect(config.vat).toEqual({ vies: null });
  });

  it('reads the seller and VIES settings', () => {
    const config = loadConfig({
      SELLER_NAME: 'Verbatim SAS',
      SELLER_ADDRESS: '1 rue de la Paix\\n75002 Paris\nFrance ',
      SELLER_COUNTRY: 'de',
      SELLER_VAT_NUMBER: 'de 136.308.783',
      SELLER_EMAIL: 'billing@verbatim.example',
      VIES_ENABLED: 'true',
      VIES_TIMEOUT_MS: '2500',
    });
    expect(config.seller).toEqual({
      name: 'Verbatim SAS',
      addressLines: ['1 rue de la Paix', '75002 Paris', 'France'],
      country: 'DE',
      vatNumber: 'DE136308783',
      email: 'billing@verbatim.example',
    });
    expect(config.vat.vies).toEqual({
      url: 'https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number',
      timeoutMs: 2500,
    });
    expect(loadConfig({ VIES_ENABLED: 'true', VIES_URL: 'http://127.0.0.1:9/check' }).vat.vies?.url).toBe(
      'http://127.0.0.1:9/check',
    );
  });

  it('accepts a seller outside the EU, with a VAT number of its own country', () => {
    expect(loadConfig({ SELLER_COUNTRY: 'CH', SELLER_VAT_NUMBER: 'CHE123456788' }).seller).toMatchObject({
      country: 'CH',
      vatNumber: 'CHE123456788',
    });
    expect(loadConfig({ SELLER_COUNTRY: 'GR', SELLER_VAT_NUMBER: 'EL094501040' }).seller.vatNumber).toBe(
      'EL094501040',
    );
  });

  it('names every bad seller or VIES variable', () => {
    expect(problemsOf({ SELLER_COUNTRY: 'ZZ' })).toContain('SELLER_COUNTRY');
    expect(problemsOf({ SELLER_COUNTRY: 'FR', SELLER_VAT_NUMBER: 'DE136308783' })).toMatch(
      /SELLER_VAT_NUMBER: must start with FR/,
    );
    expect(problemsOf({ SELLER_COUNTRY: 'DE', SELLER_VAT_NUMBER: 'DE136308784' })).toMatch(
      /SELLER_VAT_NUMBER: not a valid DE VAT number/,
    );
    expect(problemsOf({ SELLER_VAT_NUMBER: '12' })).toContain('SELLER_VAT_NUMBER');
    const problems = problemsOf({ VIES_ENABLED: 'sometimes', VIES_URL: 'ftp://vies', VIES_TIMEOUT_MS: '0' });
    for (const name of ['VIES_ENABLED', 'VIES_URL', 'VIES_TIMEOUT_MS']) expect(problems).toContain(name);
  });
});
