import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.js';
import { captureLogs } from '../../test-support/log-capture.js';
import type { VatNumberRegistry, VatRegistryAnswer } from './vat-number-registry.js';
import { VatService } from './vat.service.js';

/** A register that knows some numbers, or is down; it records what it was asked. */
function register(registered: string[], down?: string) {
  const asked: string[] = [];
  const registry: VatNumberRegistry = {
    check(prefix, national) {
      asked.push(`${prefix}${national}`);
      const answer: VatRegistryAnswer = down
        ? { status: 'unavailable', reason: down }
        : { status: registered.includes(`${prefix}${national}`) ? 'valid' : 'invalid' };
      return Promise.resolve(answer);
    },
  };
  return { registry, asked };
}

function service(
  options: { registry?: VatNumberRegistry | null; sellerCountry?: string; day?: string } = {},
) {
  const logs = captureLogs();
  const vat = new VatService({
    sellerCountry: options.sellerCountry ?? 'FR',
    registry: options.registry ?? null,
    logger: logs.logger,
    now: () => new Date(`${options.day ?? '2026-01-15'}T10:00:00Z`),
  });
  return { vat, logs: logs.lines };
}

describe('VatService.quote', () => {
  it('answers a private customer with the standard rate of their country', async () => {
    const { vat } = service();
    await expect(vat.quote('de')).resolves.toEqual({
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
    await expect(vat.quote('FR', '')).resolves.toMatchObject({ treatment: 'domestic', standardRate: 20 });
    await expect(vat.quote('FR', '   ')).resolves.toMatchObject({ validation: 'none', vatNumber: null });
  });

  it('applies the rate in force on the day', async () => {
    await expect(service({ day: '2025-06-30' }).vat.quote('EE')).resolves.toMatchObject({ standardRate: 22 });
    await expect(service({ day: '2025-07-01' }).vat.quote('EE')).resolves.toMatchObject({ standardRate: 24 });
  });

  it('confirms a number with the register, then applies the reverse charge', async () => {
    const { registry, asked } = register(['DE136308783']);
    const { vat } = service({ registry });
    await expect(vat.quote('DE', 'DE 136 308 783')).resolves.toMatchObject({
      isValidVATNumber: true,
      vatNumber: 'DE136308783',
      validation: 'vies',
      treatment: 'reverse_charge',
      reverseCharge: true,
      standardRate: 0,
      countryStandardRate: 19,
    });
    await expect(vat.quote('DE', '811363057')).resolves.toMatchObject({
      isValidVATNumber: false,
      validation: 'vies',
      treatment: 'eu_consumer',
      standardRate: 19,
    });
    expect(asked).toEqual(['DE136308783', 'DE811363057']);
  });

  it('asks the register with EL for Greece', async () => {
    const { registry, asked } = register(['EL094501040']);
    await expect(service({ registry }).vat.quote('GR', '094501040')).resolves.toMatchObject({
      isValidVATNumber: true,
      vatNumber: 'EL094501040',
      standardRate: 0,
    });
    expect(asked).toEqual(['EL094501040']);
  });

  it('does not ask the register about a malformed number or one with wrong check digits', async () => {
    const { registry, asked } = register(['DE136308783']);
    const { vat } = service({ registry });
    for (const number of ['DE136308784', 'DE1234', 'FR40303265045']) {
      await expect(vat.quote('DE', number), number).resolves.toMatchObject({
        isValidVATNumber: false,
        validation: 'format',
        reverseCharge: false,
        standardRate: 19,
      });
    }
    expect(asked).toEqual([]);
  });

  it('falls back to format and check digits when the register is unavailable, and logs why', async () => {
    const { registry } = register([], 'HTTP 200, MS_UNAVAILABLE');
    const { vat, logs } = service({ registry });
    await expect(vat.quote('IT', 'IT00743110157')).resolves.toMatchObject({
      isValidVATNumber: true,
      validation: 'format',
      treatment: 'reverse_charge',
      standardRate: 0,
    });
    const warning = logs.find((line) => line.level === 40);
    expect(warning).toMatchObject({ vatPrefix: 'IT', reason: 'HTTP 200, MS_UNAVAILABLE' });
    expect(warning?.msg).toMatch(/VIES unavailable/);
    expect(JSON.stringify(logs)).not.toContain('00743110157');
  });

  it('judges on format and check digits when no register is configured, without a warning', async () => {
    const { vat, logs } = service({ registry: null });
    await expect(vat.quote('NL', 'NL806753742B01')).resolves.toMatchObject({
      isValidVATNumber: true,
      validation: 'format',
      reverseCharge: true,
    });
    expect(logs).toEqual([]);
  });

  it('charges a company of the seller’s own country its standard rate', async () => {
    const { registry } = register(['FR40303265045']);
    await expect(service({ registry }).vat.quote('FR', 'FR40303265045')).resolves.toMatchObject({
      isValidVATNumber: true,
      treatment: 'domestic',
      reverseCharge: false,
      standardRate: 20,
    });
  });

  it('takes Monaco customers, whose numbers are French, as France', async () => {
    const { registry } = register(['FR40303265045']);
    await expect(
      service({ registry, sellerCountry: 'DE' }).vat.quote('MC', 'FR40303265045'),
    ).resolves.toMatchObject({
      country: 'MC',
      countryName: 'Monaco',
      isValidVATNumber: true,
      treatment: 'reverse_charge',
      countryStandardRate: 20,
    });
  });

  it('charges nothing outside the EU and keeps the number unchecked', async () => {
    const { registry, asked } = register([]);
    await expect(service({ registry }).vat.quote('GB', 'gb 123 4567 89')).resolves.toEqual({
      country: 'GB',
      countryName: 'United Kingdom',
      isValidVATNumber: true,
      vatNumber: 'GB123456789',
      validation: 'not_checked',
      treatment: 'outside_eu',
      reverseCharge: false,
      standardRate: 0,
      countryStandardRate: null,
      ratesAsOf: '2026-01-01',
    });
    await expect(service().vat.quote('US')).resolves.toMatchObject({
      standardRate: 0,
      isValidVATNumber: false,
    });
    expect(asked).toEqual([]);
  });

  it('refuses a code that is not a country', async () => {
    const { vat } = service();
    for (const country of ['ZZ', 'EL', 'UK', 'EU']) {
      const error = await vat.quote(country).catch((caught: unknown) => caught);
      expect(error, country).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'COUNTRY_UNKNOWN', statusCode: 400 });
    }
  });
});

describe('VatService.countries', () => {
  it('lists every country with its name', () => {
    const countries = service().vat.countries();
    expect(countries.length).toBeGreaterThan(240);
    expect(countries).toContainEqual({ iso: 'FR', name: 'France' });
  });
});
