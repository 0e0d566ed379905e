import type { TokenResponse } from '@verbatim/contracts';
import type { User, UserManager } from 'oidc-client-ts';
import { userFromTokens } from './userFromTokens';

/** Where the path a signed-out visitor asked for waits until sign-in (spec §3: with the auth user). */
export const rememberedPathKey = 'verbatim.auth.redirectPath';

export type SessionEnd = 'logout' | 'expiry';

/**
 * The console's one place for the session: the signed-in user (an oidc-client-ts User kept in
 * storage), its renewal, its end, and the path to return to after signing in.
 */
export class AuthSession {
  #user: User | null = null;
  #lastEnd: SessionEnd | null = null;
  readonly #listeners = new Set<() => void>();

  constructor(
    readonly manager: UserManager,
    private readonly storage: Storage,
  ) {
    manager.events.addUserLoaded((user) => this.#set(user));
    manager.events.addUserUnloaded(() => this.#set(null));
    // Spec §4: an expired token, or a failed silent renewal, ends the session.
    manager.events.addSilentRenewError(() => void this.end('expiry'));
    manager.events.addAccessTokenExpired(() => void this.end('expiry'));
  }

  /** Reads the stored user; an expired access token is renewed first, or the session ends. */
  async load(): Promise<void> {
    const user = await this.manager.getUser();
    if (user?.expired) {
      const renewed = user.refresh_token ? await this.manager.signinSilent().catch(() => null) : null;
      if (!renewed) await this.manager.removeUser();
      this.#set(renewed);
      return;
    }
    this.#set(user);
  }

  /** The current user, for useSyncExternalStore. */
  readonly getUser = (): User | null => this.#user;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  accessToken(): string | undefined {
    return this.#user && !this.#user.expired ? this.#user.access_token : undefined;
  }

  /** How the last session ended: a logout does not remember the path (spec §2). */
  get lastEnd(): SessionEnd | null {
    return this.#lastEnd;
  }

  /**
   * Stores the user of a token response. `quiet` stores it without telling the screens, for a
   * caller that reloads the page next (spec §4: a sign-in reloads to the root).
   */
  async signInWithTokens(tokens: TokenResponse, { quiet = false } = {}): Promise<User> {
    const user = userFromTokens(tokens);
    await this.manager.storeUser(user);
    if (!quiet) {
      // Loads the renewal timers of the stored user.
      await this.manager.getUser();
      this.#lastEnd = null;
      this.#set(user);
    }
    return user;
  }

  /** Logout: revokes the refresh token at the identity provider, then forgets the user. */
  async logout(): Promise<void> {
    this.#lastEnd = 'logout';
    this.forgetRememberedPath();
    // A revocation that fails (offline, provider down) must not keep the user signed in here.
    await this.manager.revokeTokens(['refresh_token']).catch(() => undefined);
    await this.manager.removeUser();
    this.#set(null);
  }

  /** The session ended without the user asking (expiry, 401): forget the user. */
  async end(reason: SessionEnd = 'expiry'): Promise<void> {
    if (!this.#user) return;
    this.#lastEnd = reason;
    await this.manager.removeUser();
    this.#set(null);
  }

  rememberPath(path: string): void {
    this.storage.setItem(rememberedPathKey, path);
  }

  rememberedPath(): string | null {
    return this.storage.getItem(rememberedPathKey) ?? null;
  }

  forgetRememberedPath(): void {
    this.storage.removeItem(rememberedPathKey);
  }

  #set(user: User | null): void {
    if (user === this.#user) return;
    this.#user = user;
    for (const listener of this.#listeners) listener();
  }
}
