import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from './api/queryClient';
import { AppProviders } from './app/AppProviders';
import { routes } from './app/routes';
import { theme } from './app/theme';
import { createAuthSession } from './auth/createAuthSession';
import { wrongAddressOf } from './auth/publicAddress';
import { createI18n } from './i18n/createI18n';
import { showGeneralErrorWith } from './screens/generalError/generalErrorLocation';
import { WrongAddressScreen } from './screens/wrongAddress/WrongAddressScreen';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

// index.html's title and description serve the first paint; from here on the routes own them and
// React hoists its own, so the static ones would linger as duplicates.
for (const staticTag of document.head.querySelectorAll('title, meta[name="description"]')) staticTag.remove();

// At another address than the server's PUBLIC_URL nothing but this explanation can work.
const wrongAddress = wrongAddressOf(document, window.location);
if (wrongAddress) {
  const i18n = await createI18n();
  createRoot(rootElement).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <MantineProvider theme={theme}>
          <WrongAddressScreen address={wrongAddress} />
        </MantineProvider>
      </I18nextProvider>
    </StrictMode>,
  );
} else {
  const [i18n, session] = await Promise.all([createI18n(), createAuthSession(window.location.origin)]);
  const router = createBrowserRouter(routes);
  const queryClient = createQueryClient({ i18n, onGlobalFailure: showGeneralErrorWith(router) });

  createRoot(rootElement).render(
    <StrictMode>
      <AppProviders i18n={i18n} queryClient={queryClient} session={session}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}
