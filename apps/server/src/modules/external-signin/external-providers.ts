import type { Config } from '../../config/config.js';
import type { ExternalProvider } from './external-identity.js';
import { GithubProvider } from './github-provider.js';
import { GoogleProvider } from './google-provider.js';

/** The providers whose client id and secret are configured, in the order their buttons appear. */
export function createExternalProviders(config: Config['identity']['externalProviders']): ExternalProvider[] {
  return [
    ...(config.google ? [new GoogleProvider(config.google)] : []),
    ...(config.github ? [new GithubProvider(config.github)] : []),
  ];
}
