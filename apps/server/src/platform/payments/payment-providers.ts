import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { SecretStore } from '../crypto/secret-store.js';
import { paymentWebhookPath, type PaymentProvider } from './payment-provider.js';
import { loadSandboxSecret, SandboxPaymentProvider } from './sandbox-provider.js';
import { StripePaymentProvider } from './stripe-provider.js';

export interface PaymentProviders {
  /** The configured provider: it opens checkout sessions and reads webhooks. */
  provider: PaymentProvider;
  /** The same object when it is the sandbox, whose checkout pages the product serves; else null. */
  sandbox: SandboxPaymentProvider | null;
}

/** The provider PAYMENT_PROVIDER names. Only that one is active: its webhooks are the only ones accepted. */
export async function createPaymentProviders(
  config: Config['payments'],
  dependencies: { publicUrl: string; secrets: SecretStore; logger: Logger },
): Promise<PaymentProviders> {
  const settings = config.provider;
  switch (settings.kind) {
    case 'stripe':
      return { provider: new StripePaymentProvider(settings), sandbox: null };
    case 'sandbox': {
      dependencies.logger.warn(
        'payments use the sandbox checkout (TEST MODE): test cards add credit for free; set PAYMENT_PROVIDER=stripe to take real payments',
      );
      const sandbox = new SandboxPaymentProvider({
        secret: await loadSandboxSecret(dependencies.secrets),
        publicUrl: dependencies.publicUrl,
        webhookUrl: settings.webhookUrl ?? `${dependencies.publicUrl}${paymentWebhookPath('sandbox')}`,
        logger: dependencies.logger,
      });
      return { provider: sandbox, sandbox };
    }
  }
}
