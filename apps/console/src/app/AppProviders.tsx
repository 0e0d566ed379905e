import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { toastAutoCloseMs } from '../notifications/notify';
import { AppErrorBoundary } from '../screens/generalError/AppErrorBoundary';
import { theme } from './theme';

export interface AppProvidersProps {
  i18n: i18n;
  queryClient: QueryClient;
  children: ReactNode;
}

/**
 * Everything screens rely on. Translations and styling sit outside the error boundary so that even
 * its fallback page is translated and styled.
 */
export function AppProviders({ i18n, queryClient, children }: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme}>
        <Notifications position="top-right" autoClose={toastAutoCloseMs} />
        <AppErrorBoundary>
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </AppErrorBoundary>
      </MantineProvider>
    </I18nextProvider>
  );
}
