import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.js';
import { captureLogs } from '../../test-support/log-capture.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { SecretStore } from '../crypto/secret-store.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { CHECKOUT_SESSION_ID } from './payment-provider.js';
import { createPaymentProviders } from './payment-providers.js';
import { SandboxPaymentProvider } from './sandbox-provider.js';
import { StripePaymentProvider } from './stripe-provider.js';

const stripeEnv = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_51Verbatim',
  STRIPE_WEBHOOK_SECRET: 'whsec_verbatim',
};

function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('payment configuration', () => {
  it('uses the sandbox by default, delivering to its own webhook route', () => {
    expect(loadConfig({}).payments).toEqual({ provider: { kind: 'sandbox', webhookUrl: null } });
    expect(
      loadConfig({ SANDBOX_WEBHOOK_URL: 'http://10.0.0.5:8080/api/v1/limiter/payments/webhook/sandbox' })
        .payments,
    ).toEqual({
      provider: {
        kind: 'sandbox',
        webhookUrl: 'http://10.0.0.5:8080/api/v1/limiter/payments/webhook/sandbox',
      },
    });
  });

  it('configures Stripe from its keys, and names what is missing or malformed', () => {
    expect(loadConfig({ ...stripeEnv, STRIPE_API_URL: 'http://127.0.0.1:12111/' }).payments).toEqual({
      provider: {
        kind: 'stripe',
        secretKey: 'sk_test_51Verbatim',
        webhookSecret: 'whsec_verbatim',
        apiUrl: 'http://127.0.0.1:12111',
      },
    });
    expect(configProblems({ PAYMENT_PROVIDER: 'stripe' })).toEqual([
      'STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER is stripe',
      'STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER is stripe',
    ]);
    expect(configProblems({ ...stripeEnv, STRIPE_SECRET_KEY: 'pk_test_publishable' })).toEqual([
      'STRIPE_SECRET_KEY: must be a Stripe secret key (sk_test_… or sk_live_…)',
    ]);
    expect(configProblems({ PAYMENT_PROVIDER: 'paypal' })).toEqual([
      'PAYMENT_PROVIDER: must be sandbox or stripe',
    ]);
  });
});

describe('payment providers', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const logs = captureLogs('warn');

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase(testDatabase.config, logs.logger);
    await migrateToLatest(database.db as Kysely<unknown>);
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it('gives every node the same sandbox secret: a session opened on one is paid on another', async () => {
    const dependencies = { publicUrl: 'https://verbatim.test', logger: logs.logger };
    const nodeA = await createPaymentProviders(loadConfig({}).payments, {
      ...dependencies,
      secrets: new SecretStore(database.db),
    });
    const nodeB = await createPaymentProviders(loadConfig({}).payments, {
      ...dependencies,
      secrets: new SecretStore(database.db),
    });
    expect(nodeA.provider).toBeInstanceOf(SandboxPaymentProvider);
    expect(nodeA.sandbox).toBe(nodeA.provider);
    const session = await nodeA.provider.createCheckoutSession({
      paymentId: 'pay_1',
      amountCents: 1_000,
      currency: 'usd',
      description: 'Prepaid speech-to-text API credits',
      customerEmail: 'zoe@example.com',
      locale: 'en',
      successUrl: `https://verbatim.test/payment/success/${CHECKOUT_SESSION_ID}`,
      cancelUrl: 'https://verbatim.test/billing',
    });
    const token = new URL(session.checkoutUrl).searchParams.get('session') ?? '';
    expect(nodeB.sandbox?.openSession(token)).toMatchObject({
      status: 'open',
      session: { paymentId: 'pay_1' },
    });
    expect(logs.lines.some((line) => String(line.msg).includes('sandbox checkout (TEST MODE)'))).toBe(true);
  });

  it('builds the Stripe provider, without a sandbox', async () => {
    const providers = await createPaymentProviders(loadConfig(stripeEnv).payments, {
      publicUrl: 'https://verbatim.test',
      logger: logs.logger,
      secrets: new SecretStore(database.db),
    });
    expect(providers.provider).toBeInstanceOf(StripePaymentProvider);
    expect(providers.provider.id).toBe('stripe');
    expect(providers.sandbox).toBeNull();
  });
});
