import type { TokenResponse } from '@verbatim/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { documentNavigation } from '../app/documentNavigation';
import { isLanguageCode } from '../i18n/resources';
import { fetchProfileWith } from '../profile/profileApi';
import { useAuthSession } from './AuthSessionContext';

/**
 * The end of every sign-in (password, verification link, new password): the interface switches to
 * the profile's language, the user is stored, and the app reloads to the root, which leads to the
 * remembered path or /home (spec §4).
 */
export function useCompleteSignIn(): (tokens: TokenResponse) => Promise<void> {
  const session = useAuthSession();
  const { i18n } = useTranslation();
  return useCallback(
    async (tokens) => {
      const profile = await fetchProfileWith(tokens.access_token).catch(() => undefined);
      if (profile && isLanguageCode(profile.language)) await i18n.changeLanguage(profile.language);
      await session.signInWithTokens(tokens, { quiet: true });
      documentNavigation.assign('/');
    },
    [i18n, session],
  );
}
