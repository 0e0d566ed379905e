import { apiErrorSchema, countriesSchema, vatRateSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { startViesStandIn, type ViesStandIn } from '../../test-support/vies-stand-in.js';

describe('countries and VAT rates', () => {
  let runtime: TestRuntime;
  let vies: ViesStandIn;
  let headers: { authorization: string };

  beforeAll(async () => {
    // Registered: a German, an Italian and a French company.
    vies = await startViesStandIn(['DE136308783', 'IT00743110157', 'FR40303265045']);
    runtime = await startTestRuntime({
      env: { VIES_ENABLED: 'true', VIES_URL: vies.url, VIES_TIMEOUT_MS: '1000', SELLER_COUNTRY: 'FR' },
    });
    const account = await createAccount(runtime);
    headers = bearer(await signIn(runtime, account.email));
  });
  afterAll(async () => {
    await runtime.close();
    await vies.close();
  });
  beforeEach(() => {
    vies.mode = 'up';
  });

  async function vatRate(path: string) {
    const response = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/limiter/vat-rate/${path}`,
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return vatRateSchema.parse(response.json());
  }

  async function rejected(path: string) {
    const response = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/limiter/vat-rate/${path}`,
      headers,
    });
    return { status: response.statusCode, body: apiErrorSchema.parse(response.json()) };
  }

  it('refuses both routes without a token', async () => {
    for (const url of [
      '/api/v1/limiter/countries',
      '/api/v1/limiter/vat-rate/DE',
      '/api/v1/limiter/vat-rate/ZZ',
    ]) {
      const response = await runtime.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(apiErrorSchema.parse(response.json()).code).toBe('UNAUTHENTICATED');
    }
  });

  it('GET /limiter/countries lists every country by name', async () => {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/limiter/countries', headers });
    expect(response.statusCode).toBe(200);
    const countries = countriesSchema.parse(response.json());
    expect(countries).toHaveLength(250);
    expect(countries[0]).toEqual({ iso: 'AF', name: 'Afghanistan' });
    expect(countries).toContainEqual({ iso: 'GR', name: 'Greece' });
    expect(Object.keys(countries[0] ?? {}).sort()).toEqual(['iso', 'name']);
  });

  it('charges a private customer in another member state the rate of their country', async () => {
    expect(await vatRate('de')).toEqual({
      country: 'DE',
      countryName: 'Germany',
      isValidVATNumber: false,
      vatNumber: null,
      validation: 'none',
      treatment: 'eu_consumer',
      reverseCharge: false,
      standardRate: 19,
      countryStandardRate: 19,
      ratesAsOf: '2026-01-01',
    });
    expect(await vatRate('FI?vatNumber=')).toMatchObject({ standardRate: 25.5, validation: 'none' });
  });

  it('applies the reverse charge to a company of another member state confirmed by VIES', async () => {
    expect(await vatRate('DE?vatNumber=DE136308783')).toMatchObject({
      isValidVATNumber: true,
      vatNumber: 'DE136308783',
      validation: 'vies',
      treatment: 'reverse_charge',
      reverseCharge: true,
      standardRate: 0,
      countryStandardRate: 19,
    });
    expect(vies.requests).toContainEqual({ countryCode: 'DE', vatNumber: '136308783' });
  });

  it("charges a company of the seller's country the standard rate", async () => {
    expect(await vatRate('FR?vatNumber=FR40303265045')).toMatchObject({
      isValidVATNumber: true,
      treatment: 'domestic',
      reverseCharge: false,
      standardRate: 20,
    });
  });

  it('says a number with wrong check digits is invalid, and charges VAT', async () => {
    const asked = vies.requests.length;
    expect(await vatRate('DE?vatNumber=DE136308784')).toMatchObject({
      isValidVATNumber: false,
      validation: 'format',
      treatment: 'eu_consumer',
      standardRate: 19,
    });
    expect(vies.requests).toHaveLength(asked);
  });

  it('says a well-formed number VIES does not know is invalid', async () => {
    expect(await vatRate('DE?vatNumber=DE811363057')).toMatchObject({
      isValidVATNumber: false,
      validation: 'vies',
      standardRate: 19,
    });
  });

  it('charges nothing outside the EU', async () => {
    expect(await vatRate('US')).toMatchObject({
      treatment: 'outside_eu',
      standardRate: 0,
      countryStandardRate: null,
    });
    expect(await vatRate('CH?vatNumber=CHE-123456788')).toMatchObject({
      isValidVATNumber: true,
      validation: 'not_checked',
      standardRate: 0,
    });
  });

  it('falls back to format and check digits when VIES is unavailable, and logs it', async () => {
    for (const mode of ['ms_unavailable', 'hang'] as const) {
      vies.mode = mode;
      // A number not asked before: definite answers are remembered for a while.
      const number = mode === 'hang' ? 'BE0428759497' : 'IT00743110157';
      const country = number.slice(0, 2);
      expect(await vatRate(`${country}?vatNumber=${number}`), mode).toMatchObject({
        isValidVATNumber: true,
        validation: 'format',
        reverseCharge: true,
        standardRate: 0,
      });
      const warning = runtime.logs.find(
        (line) =>
          line.level === 40 && line.vatPrefix === country && /VIES unavailable/.test(String(line.msg)),
      );
      expect(warning?.reason, mode).toMatch(mode === 'hang' ? /no answer within 1000 ms/ : /MS_UNAVAILABLE/);
    }
  });

  it('answers malformed input with the spec messages', async () => {
    for (const path of [
      'DE?vatNumber=DE%20136%20308%20783',
      'DE?vatNumber=DE.136',
      `DE?vatNumber=${'1'.repeat(33)}`,
    ]) {
      const { status, body } = await rejected(path);
      expect(status, path).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details?.[0]).toMatchObject({
        location: 'query',
        path: ['vatNumber'],
        message: 'Invalid vatNumber',
      });
    }
    for (const path of ['DEU', 'D1', '12']) {
      const { status, body } = await rejected(path);
      expect(status, path).toBe(400);
      expect(body.details?.[0]).toMatchObject({ location: 'params', message: 'Select valid country' });
    }
  });

  it('refuses a code that is not a country, as the OpenAPI document lists the countries', async () => {
    for (const code of ['ZZ', 'AA', 'Fr']) {
      const { status, body } = await rejected(code);
      expect(status, code).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details?.[0]).toMatchObject({ location: 'params', message: 'Select valid country' });
    }
  });
});
