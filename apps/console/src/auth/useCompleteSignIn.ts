import type { TokenResponse } from '@verbatim/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { documentNavigation } from '../app/documentNavigation';
import { isLanguageCode } from '../i18n/resources';
import { fetchSettingsWith } from '../settings/settingsApi';
import { useAuthSession } from './AuthSessionContext';

/**
 * The end of every sign-in (password, verification link, new password): the interface switches to
 * the language of the account's settings (spec §4), the user is stored, and the app reloads to the root, which leads to the
 * remembered path or /home (spec §4).
 */
export function useCompleteSignIn(): (tokens: TokenResponse) => Promise<void> {
  const session = useAuthSession();
  const { i18n } = useTranslation();
  return useCallback(
    async (tokens) => {
      const settings = await fetchSettingsWith(tokens.access_token).catch(() => undefined);
      if (settings && isLanguageCode(settings.language)) await i18n.changeLanguage(settings.language);
      await session.signInWithTokens(tokens, { quiet: true });
      documentNavigation.assign('/');
    },
    [i18n, session],
  );
}
