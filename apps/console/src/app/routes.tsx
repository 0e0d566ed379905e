import { Navigate, Outlet, type RouteObject, ScrollRestoration } from 'react-router';
import { authPaths } from '../auth/authPaths';
import { RedirectSignedIn } from '../auth/RedirectSignedIn';
import { RequireSignedIn } from '../auth/RequireSignedIn';
import { RootRedirect } from '../auth/RootRedirect';
import { CenteredLoader } from '../chrome/CenteredLoader';
import { PublicLayout } from '../chrome/PublicLayout';
import { LoginSuccessScreen } from '../screens/authCallbacks/LoginSuccessScreen';
import { LogoutSuccessScreen } from '../screens/authCallbacks/LogoutSuccessScreen';
import { TokenRenewSuccessScreen } from '../screens/authCallbacks/TokenRenewSuccessScreen';
import { GeneralErrorScreen } from '../screens/generalError/GeneralErrorScreen';
import { RouteErrorScreen } from '../screens/generalError/RouteErrorScreen';
import { NotFoundScreen } from '../screens/notFound/NotFoundScreen';
import { CloudEditionOnly } from './CloudEditionOnly';
import { lazyRoute } from './lazyRoute';
import {
  apiKeysPath,
  onPremisePath,
  billingPath,
  configurationPath,
  integrationsPath,
  generalErrorPath,
  homePath,
  liveTranscribePath,
  paymentPath,
  submittedFilesPath,
} from './paths';
import type { RouteHandle } from './routeHandle';
import { RouteMetadata } from './RouteMetadata';

/** The console's route table (spec §2), limited to the screens whose features exist. */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteErrorScreen />,
    // Shown while the first screen's modules load (lazyRoute).
    hydrateFallbackElement: <CenteredLoader />,
    children: [
      { index: true, element: <RootRedirect /> },
      { path: authPaths.root, element: <RootRedirect /> },
      {
        element: <RequireSignedIn />,
        children: [
          {
            // The signed-in chrome (sidebar, user menu, credit) is no part of a signed-out visit.
            ...lazyRoute(() => import('../chrome/AppLayout'), 'AppLayout'),
            handle: {
              breadcrumb: { labelKey: 'chrome.breadcrumbs.home', to: homePath },
            } satisfies RouteHandle,
            children: [
              {
                path: homePath,
                ...lazyRoute(() => import('../screens/home/HomeScreen'), 'HomeScreen'),
                handle: {
                  titleKey: 'screens.home.title',
                  descriptionKey: 'screens.home.description',
                } satisfies RouteHandle,
              },
              {
                path: liveTranscribePath,
                ...lazyRoute(
                  () => import('../screens/liveTranscribe/LiveTranscribeScreen'),
                  'LiveTranscribeScreen',
                ),
                handle: {
                  titleKey: 'screens.liveTranscribe.title',
                  descriptionKey: 'screens.liveTranscribe.description',
                } satisfies RouteHandle,
              },
              {
                path: apiKeysPath,
                ...lazyRoute(() => import('../screens/apiKeys/ApiKeysScreen'), 'ApiKeysScreen'),
                handle: {
                  titleKey: 'screens.apiKeys.title',
                  descriptionKey: 'screens.apiKeys.description',
                  breadcrumb: { labelKey: 'screens.apiKeys.title' },
                } satisfies RouteHandle,
              },
              {
                path: onPremisePath,
                ...lazyRoute(() => import('../screens/onPremise/OnPremiseScreen'), 'OnPremiseScreen'),
                handle: {
                  titleKey: 'screens.onPremise.title',
                  descriptionKey: 'screens.onPremise.description',
                } satisfies RouteHandle,
              },
              {
                path: billingPath,
                element: <CloudEditionOnly />,
                handle: { breadcrumb: { labelKey: 'screens.billing.breadcrumb' } } satisfies RouteHandle,
                children: [
                  {
                    index: true,
                    ...lazyRoute(() => import('../screens/billing/BillingScreen'), 'BillingScreen'),
                    handle: {
                      titleKey: 'screens.billing.title',
                      descriptionKey: 'screens.billing.description',
                    } satisfies RouteHandle,
                  },
                  {
                    path: 'history',
                    ...lazyRoute(
                      () => import('../screens/billing/BillingHistoryScreen'),
                      'BillingHistoryScreen',
                    ),
                    handle: {
                      titleKey: 'screens.billingHistory.title',
                      descriptionKey: 'screens.billingHistory.description',
                      breadcrumb: { labelKey: 'screens.billingHistory.breadcrumb' },
                    } satisfies RouteHandle,
                  },
                ],
              },
              {
                path: submittedFilesPath,
                handle: {
                  breadcrumb: { labelKey: 'screens.submittedFiles.title', to: submittedFilesPath },
                } satisfies RouteHandle,
                children: [
                  {
                    index: true,
                    ...lazyRoute(
                      () => import('../screens/submittedFiles/SubmittedFilesScreen'),
                      'SubmittedFilesScreen',
                    ),
                    handle: {
                      titleKey: 'screens.submittedFiles.title',
                      descriptionKey: 'screens.submittedFiles.description',
                    } satisfies RouteHandle,
                  },
                  {
                    path: ':fileId',
                    ...lazyRoute(() => import('../screens/transcript/TranscriptScreen'), 'TranscriptScreen'),
                    handle: {
                      titleKey: 'screens.transcript.title',
                      descriptionKey: 'screens.transcript.description',
                      breadcrumb: { labelKey: 'screens.transcript.breadcrumb' },
                    } satisfies RouteHandle,
                  },
                ],
              },
              {
                path: integrationsPath,
                ...lazyRoute(
                  () => import('../screens/integrations/IntegrationsScreen'),
                  'IntegrationsScreen',
                ),
                handle: {
                  titleKey: 'screens.integrations.title',
                  descriptionKey: 'screens.integrations.description',
                } satisfies RouteHandle,
              },
              {
                path: configurationPath,
                ...lazyRoute(
                  () => import('../screens/configuration/ConfigurationScreen'),
                  'ConfigurationScreen',
                ),
                handle: {
                  titleKey: 'screens.configuration.title',
                  descriptionKey: 'screens.configuration.description',
                } satisfies RouteHandle,
              },
              {
                // Spec §2: /payment only redirects to /billing; its crumb leads there too.
                path: paymentPath,
                element: <CloudEditionOnly />,
                handle: {
                  breadcrumb: { labelKey: 'screens.billing.breadcrumb', to: billingPath },
                } satisfies RouteHandle,
                children: [
                  { index: true, element: <Navigate to={billingPath} replace /> },
                  {
                    path: 'success/:sessionId',
                    ...lazyRoute(
                      () => import('../screens/payment/PaymentSuccessScreen'),
                      'PaymentSuccessScreen',
                    ),
                    handle: {
                      titleKey: 'screens.paymentSuccess.title',
                      breadcrumb: { labelKey: 'screens.paymentSuccess.breadcrumb' },
                    } satisfies RouteHandle,
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: authPaths.loginSuccess, element: <LoginSuccessScreen /> },
      { path: authPaths.tokenRenewSuccess, element: <TokenRenewSuccessScreen /> },
      { path: authPaths.logoutSuccess, element: <LogoutSuccessScreen /> },
      {
        element: <PublicLayout />,
        children: [
          {
            element: <RedirectSignedIn />,
            children: [
              {
                path: authPaths.login,
                ...lazyRoute(() => import('../screens/login/LoginScreen'), 'LoginScreen'),
                handle: {
                  titleKey: 'screens.login.title',
                  descriptionKey: 'screens.login.description',
                } satisfies RouteHandle,
              },
              {
                path: authPaths.register,
                ...lazyRoute(() => import('../screens/register/RegisterScreen'), 'RegisterScreen'),
                handle: {
                  titleKey: 'screens.register.title',
                  descriptionKey: 'screens.register.description',
                } satisfies RouteHandle,
              },
              {
                path: `${authPaths.recovery}/:recoveryToken`,
                ...lazyRoute(() => import('../screens/recovery/RecoveryScreen'), 'RecoveryScreen'),
                handle: { titleKey: 'screens.recovery.title' } satisfies RouteHandle,
              },
              {
                path: `${authPaths.verify}/:code?`,
                ...lazyRoute(() => import('../screens/verify/VerifyEmailScreen'), 'VerifyEmailScreen'),
                handle: { titleKey: 'screens.verify.title' } satisfies RouteHandle,
              },
            ],
          },
          {
            // Not behind RedirectSignedIn: the sign-in it completes must not be cut short by it.
            path: authPaths.externalLogin,
            ...lazyRoute(() => import('../screens/externalLogin/ExternalLoginScreen'), 'ExternalLoginScreen'),
            handle: { titleKey: 'screens.externalLogin.title' } satisfies RouteHandle,
          },
          {
            path: `${authPaths.interaction}/:uid`,
            ...lazyRoute(() => import('../screens/interaction/InteractionScreen'), 'InteractionScreen'),
            handle: { titleKey: 'screens.login.title' } satisfies RouteHandle,
          },
          {
            path: authPaths.pendingApproval,
            ...lazyRoute(
              () => import('../screens/pendingApproval/PendingApprovalScreen'),
              'PendingApprovalScreen',
            ),
            handle: { titleKey: 'screens.pendingApproval.title' } satisfies RouteHandle,
          },
          {
            path: generalErrorPath,
            element: <GeneralErrorScreen />,
            handle: {
              titleKey: 'screens.generalError.title',
              descriptionKey: 'screens.generalError.description',
            } satisfies RouteHandle,
          },
          {
            path: '*',
            element: <NotFoundScreen />,
            handle: {
              titleKey: 'screens.notFound.title',
              descriptionKey: 'screens.notFound.description',
            } satisfies RouteHandle,
          },
        ],
      },
    ],
  },
];

function RootRoute() {
  return (
    <>
      <RouteMetadata />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
