import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from './api/queryClient';
import { AppProviders } from './app/AppProviders';
import { routes } from './app/routes';
import { createAuthSession } from './auth/createAuthSession';
import { createI18n } from './i18n/createI18n';
import { showGeneralErrorWith } from './screens/generalError/generalErrorLocation';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

// index.html's title and description serve the first paint; from here on the routes own them and
// React hoists its own, so the static ones would linger as duplicates.
for (const staticTag of document.head.querySelectorAll('title, meta[name="description"]')) staticTag.remove();

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
