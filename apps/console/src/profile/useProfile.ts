import { useQuery } from '@tanstack/react-query';
import { profileQuery } from './profileApi';

/** The signed-in user's profile (GET /profile), shared by the chrome and the screens. */
export function useProfile() {
  return useQuery(profileQuery);
}
