import { useLocation, useSearchParams } from 'react-router';
import { GeneralErrorActions } from './GeneralErrorActions';
import { GeneralErrorPanel } from './GeneralErrorPanel';

/** The /error route: the id comes from navigation state, or from `?id=` for a shared or reloaded link. */
export function GeneralErrorScreen() {
  const state: unknown = useLocation().state;
  const [searchParams] = useSearchParams();
  const errorId = errorIdFromState(state) ?? searchParams.get('id') ?? undefined;
  return <GeneralErrorPanel errorId={errorId} actions={<GeneralErrorActions />} />;
}

function errorIdFromState(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('errorId' in state)) return undefined;
  return typeof state.errorId === 'string' ? state.errorId : undefined;
}
