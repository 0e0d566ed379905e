import { Navigate, Outlet, type RouteObject, ScrollRestoration } from 'react-router';
import { authPaths } from '../auth/authPaths';
import { RedirectSignedIn } from '../auth/RedirectSignedIn';
import { RequireSignedIn } from '../auth/RequireSignedIn';
import { RootRedirect } from '../auth/RootRedirect';
import { AppLayout } from '../chrome/AppLayout';
import { PublicLayout } from '../chrome/PublicLayout';
import { ApiKeysScreen } from '../screens/apiKeys/ApiKeysScreen';
import { LoginSuccessScreen } from '../screens/authCallbacks/LoginSuccessScreen';
import { BillingHistoryScreen } from '../screens/billing/BillingHistoryScreen';
import { BillingScreen } from '../screens/billing/BillingScreen';
import { ConfigurationScreen } from '../screens/configuration/ConfigurationScreen';
import { IntegrationsScreen } from '../screens/integrations/IntegrationsScreen';
import { LogoutSuccessScreen } from '../screens/authCallbacks/LogoutSuccessScreen';
import { TokenRenewSuccessScreen } from '../screens/authCallbacks/TokenRenewSuccessScreen';
import { ExternalLoginScreen } from '../screens/externalLogin/ExternalLoginScreen';
import { GeneralErrorScreen } from '../screens/generalError/GeneralErrorScreen';
import { RouteErrorScreen } from '../screens/generalError/RouteErrorScreen';
import { HomeScreen } from '../screens/home/HomeScreen';
import { InteractionScreen } from '../screens/interaction/InteractionScreen';
import { LiveTranscribeScreen } from '../screens/liveTranscribe/LiveTranscribeScreen';
import { LoginScreen } from '../screens/login/LoginScreen';
import { NotFoundScreen } from '../screens/notFound/NotFoundScreen';
import { OnPremiseScreen } from '../screens/onPremise/OnPremiseScreen';
import { PaymentSuccessScreen } from '../screens/payment/PaymentSuccessScreen';
import { PendingApprovalScreen } from '../screens/pendingApproval/PendingApprovalScreen';
import { RecoveryScreen } from '../screens/recovery/RecoveryScreen';
import { RegisterScreen } from '../screens/register/RegisterScreen';
import { SubmittedFilesScreen } from '../screens/submittedFiles/SubmittedFilesScreen';
import { VerifyEmailScreen } from '../screens/verify/VerifyEmailScreen';
import { CloudEditionOnly } from './CloudEditionOnly';
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
    children: [
      { index: true, element: <RootRedirect /> },
      { path: authPaths.root, element: <RootRedirect /> },
      {
        element: <RequireSignedIn />,
        children: [
          {
            element: <AppLayout />,
            handle: {
              breadcrumb: { labelKey: 'chrome.breadcrumbs.home', to: homePath },
            } satisfies RouteHandle,
            children: [
              {
                path: homePath,
                element: <HomeScreen />,
                handle: {
                  titleKey: 'screens.home.title',
                  descriptionKey: 'screens.home.description',
                } satisfies RouteHandle,
              },
              {
                path: liveTranscribePath,
                element: <LiveTranscribeScreen />,
                handle: {
                  titleKey: 'screens.liveTranscribe.title',
                  descriptionKey: 'screens.liveTranscribe.description',
                } satisfies RouteHandle,
              },
              {
                path: apiKeysPath,
                element: <ApiKeysScreen />,
                handle: {
                  titleKey: 'screens.apiKeys.title',
                  descriptionKey: 'screens.apiKeys.description',
                  breadcrumb: { labelKey: 'screens.apiKeys.title' },
                } satisfies RouteHandle,
              },
              {
                path: onPremisePath,
                element: <OnPremiseScreen />,
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
                    element: <BillingScreen />,
                    handle: {
                      titleKey: 'screens.billing.title',
                      descriptionKey: 'screens.billing.description',
                    } satisfies RouteHandle,
                  },
                  {
                    path: 'history',
                    element: <BillingHistoryScreen />,
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
                element: <SubmittedFilesScreen />,
                handle: {
                  titleKey: 'screens.submittedFiles.title',
                  descriptionKey: 'screens.submittedFiles.description',
                } satisfies RouteHandle,
              },
              {
                path: integrationsPath,
                element: <IntegrationsScreen />,
                handle: {
                  titleKey: 'screens.integrations.title',
                  descriptionKey: 'screens.integrations.description',
                } satisfies RouteHandle,
              },
              {
                path: configurationPath,
                element: <ConfigurationScreen />,
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
                    element: <PaymentSuccessScreen />,
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
                element: <LoginScreen />,
                handle: {
                  titleKey: 'screens.login.title',
                  descriptionKey: 'screens.login.description',
                } satisfies RouteHandle,
              },
              {
                path: authPaths.register,
                element: <RegisterScreen />,
                handle: {
                  titleKey: 'screens.register.title',
                  descriptionKey: 'screens.register.description',
                } satisfies RouteHandle,
              },
              {
                path: `${authPaths.recovery}/:recoveryToken`,
                element: <RecoveryScreen />,
                handle: { titleKey: 'screens.recovery.title' } satisfies RouteHandle,
              },
              {
                path: `${authPaths.verify}/:code?`,
                element: <VerifyEmailScreen />,
                handle: { titleKey: 'screens.verify.title' } satisfies RouteHandle,
              },
            ],
          },
          {
            // Not behind RedirectSignedIn: the sign-in it completes must not be cut short by it.
            path: authPaths.externalLogin,
            element: <ExternalLoginScreen />,
            handle: { titleKey: 'screens.externalLogin.title' } satisfies RouteHandle,
          },
          {
            path: `${authPaths.interaction}/:uid`,
            element: <InteractionScreen />,
            handle: { titleKey: 'screens.login.title' } satisfies RouteHandle,
          },
          {
            path: authPaths.pendingApproval,
            element: <PendingApprovalScreen />,
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
