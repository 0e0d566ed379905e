import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSessionUser } from './AuthSessionContext';

/** When the session ends, nothing of the previous user stays in the query cache. */
export function SessionCacheReset() {
  const queryClient = useQueryClient();
  const userId = useSessionUser()?.profile.sub ?? null;
  const previous = useRef(userId);
  useEffect(() => {
    if (previous.current !== null && previous.current !== userId) queryClient.removeQueries();
    previous.current = userId;
  }, [queryClient, userId]);
  return null;
}
