import type { ApiRequestError } from '../../api/ApiRequestError';
import { newErrorId } from '../../app/newErrorId';
import { generalErrorPath } from '../../app/paths';

/**
 * Where a global API failure sends the user: the general error page carrying the server's error id
 * (or a new one when the server gave none), logged so the console's log and the page agree.
 */
export function generalErrorLocation(error: ApiRequestError): string {
  const errorId = error.errorId ?? newErrorId();
  console.error(`[${errorId}] API request failed (${error.status} ${error.code}): ${error.message}`, error);
  return `${generalErrorPath}?${new URLSearchParams({ id: errorId }).toString()}`;
}

interface Navigator {
  navigate: (to: string, options: { replace: boolean }) => Promise<void>;
}

/** The QueryClient's global-failure handler for a given router. */
export function showGeneralErrorWith(router: Navigator) {
  return (error: ApiRequestError) => {
    // Replace: going back must not land on the screen that just failed and fail again.
    void router.navigate(generalErrorLocation(error), { replace: true });
  };
}
