import { Navigate, Outlet } from 'react-router';
import { CenteredLoader } from '../chrome/CenteredLoader';
import { useConsoleConfig } from '../runtimeConfig/consoleConfigQuery';
import { onPremisePath } from './paths';

/**
 * The screens of billing and payment, which only the cloud product has: the on-premise edition
 * takes no payment and keeps no credit (its licence pays), so a link or a typed address that leads
 * there goes to its licence on /on-premise instead.
 */
export function CloudEditionOnly() {
  const config = useConsoleConfig();
  if (config.isPending) return <CenteredLoader />;
  if (config.data?.edition === 'on_premise') return <Navigate to={onPremisePath} replace />;
  return <Outlet />;
}
