import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { AuthSession } from '../auth/AuthSession';
import { AuthSessionProvider } from '../auth/AuthSessionContext';
import { SessionCacheReset } from '../auth/SessionCacheReset';
import { toastAutoCloseMs } from '../notifications/notify';
import { AppErrorBoundary } from '../screens/generalError/AppErrorBoundary';
import { theme } from './theme';

export interface AppProvidersProps {
  i18n: i18n;
  queryClient: QueryClient;
  session: AuthSession;
  children: ReactNode;
}

/**
 * Everything screens rely on. Translations and styling sit outside the error boundary so that even
 * its fallback page is translated and styled.
 */
export function AppProviders({ i18n, queryClient, session, children }: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme}>
        <Notifications position="top-right" autoClose={toastAutoCloseMs} />
        <AppErrorBoundary>
          <QueryClientProvider client={queryClient}>
            <AuthSessionProvider session={session}>
              <SessionCacheReset />
              {children}
            </AuthSessionProvider>
          </QueryClientProvider>
        </AppErrorBoundary>
      </MantineProvider>
    </I18nextProvider>
  );
}
