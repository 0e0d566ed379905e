import type { InteractionDetails, InteractionExternalLoginRequest } from '@verbatim/contracts';
import type Provider from 'oidc-provider';
import { AppError } from '../../errors/app-error.js';
import type { AuditContext } from '../accounts/audit-log.js';
import type { IdentityProviderDependencies } from './identity-provider.js';
import { assertMaySignIn, type SignInService } from './sign-in.service.js';

type Interaction = InstanceType<Provider['Interaction']>;

function clientIdOf(interaction: Interaction): string {
  const clientId = interaction.params.client_id;
  return typeof clientId === 'string' ? clientId : '';
}

/** The steps of the authorization-code flow that the console renders: sign-in and consent. */
export class InteractionsService {
  constructor(
    private readonly provider: Provider,
    private readonly signIn: SignInService,
    private readonly signInExternally: IdentityProviderDependencies['signInExternally'],
  ) {}

  async details(uid: string): Promise<InteractionDetails> {
    const interaction = await this.#find(uid);
    const clientId = clientIdOf(interaction);
    const client = await this.provider.Client.find(clientId);
    const prompt = interaction.prompt.name === 'consent' ? 'consent' : 'login';
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    return {
      uid,
      prompt,
      client: { id: clientId, name: client?.clientName ?? clientId },
      requestedScopes:
        prompt === 'consent'
          ? [
              ...(details.missingOIDCScope ?? []),
              ...Object.values(details.missingResourceScopes ?? {}).flat(),
            ]
          : [],
    };
  }

  /** Checks the credentials (with throttling and captcha, as any sign-in) and resumes the flow. */
  async login(
    uid: string,
    credentials: { username: string; password: string; reCaptchaKey?: string },
    context: AuditContext,
  ) {
    const interaction = await this.#loginStep(uid);
    const account = await this.signIn.signInWithPassword({
      email: credentials.username,
      password: credentials.password,
      ...(credentials.reCaptchaKey ? { captcha: credentials.reCaptchaKey } : {}),
      context,
    });
    return this.#finish(interaction, { login: { accountId: account.id } });
  }

  /**
   * Signs in with the code Google or GitHub sent back to the console (the same sign-in as the
   * third_party grant) and resumes the flow as that account.
   */
  async loginExternally(uid: string, request: InteractionExternalLoginRequest, context: AuditContext) {
    const interaction = await this.#loginStep(uid);
    const account = await this.signInExternally(request, context);
    assertMaySignIn(account);
    return this.#finish(interaction, { login: { accountId: account.id } });
  }

  /** Grants what the application asked for. */
  async consent(uid: string) {
    const interaction = await this.#find(uid);
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name !== 'consent' || !accountId) {
      throw new AppError('BAD_REQUEST', 'This step does not ask for consent.');
    }
    const clientId = clientIdOf(interaction);
    const grant = interaction.grantId
      ? ((await this.provider.Grant.find(interaction.grantId)) ??
        new this.provider.Grant({ accountId, clientId }))
      : new this.provider.Grant({ accountId, clientId });
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(' '));
    }
    const grantId = await grant.save();
    return this.#finish(interaction, { consent: { grantId } });
  }

  /** The user declined: the application receives access_denied. */
  async abort(uid: string) {
    const interaction = await this.#find(uid);
    return this.#finish(interaction, { error: 'access_denied', error_description: 'The user declined.' });
  }

  async #loginStep(uid: string): Promise<Interaction> {
    const interaction = await this.#find(uid);
    if (interaction.prompt.name !== 'login')
      throw new AppError('BAD_REQUEST', 'This step does not ask for a sign-in.');
    return interaction;
  }

  async #find(uid: string): Promise<Interaction> {
    const interaction = await this.provider.Interaction.find(uid);
    if (!interaction)
      throw new AppError('NOT_FOUND', 'This sign-in request has expired. Please start again.');
    return interaction;
  }

  async #finish(interaction: Interaction, result: Record<string, unknown>): Promise<{ redirectTo: string }> {
    interaction.result = { ...interaction.lastSubmission, ...result };
    await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 1));
    return { redirectTo: interaction.returnTo };
  }
}
