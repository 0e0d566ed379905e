import {
  type ChangePasswordRequest,
  type Profile,
  profileSchema,
  type UpdateProfileRequest,
} from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiBlob, apiRequest } from '../api/apiClient';

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: ({ signal }) => apiRequest('/profile', { schema: profileSchema, signal }),
});

export function updateProfile(body: UpdateProfileRequest): Promise<Profile> {
  return apiRequest('/profile', { method: 'PUT', schema: profileSchema, body });
}

export function setWelcomeMessage(showWelcomeMsg: boolean): Promise<Profile> {
  return apiRequest('/profile/welcome', { method: 'PUT', schema: profileSchema, body: { showWelcomeMsg } });
}

export async function changePassword(body: ChangePasswordRequest): Promise<void> {
  await apiRequest('/profile/password', { method: 'POST', schema: z.undefined(), body });
}

export function profilePhotoPath(userId: string): string {
  return `/media/profile-photos/${encodeURIComponent(userId)}.jpg`;
}

/** Spec §7: multipart field `theFile`, a JPEG. */
export function uploadProfilePhoto(userId: string, photo: File): Promise<Profile> {
  const form = new FormData();
  form.append('theFile', photo);
  // Photos up to 5 MiB on a slow line need more than the default 10 s.
  return apiRequest(profilePhotoPath(userId), {
    method: 'PUT',
    schema: profileSchema,
    body: form,
    timeoutMs: 60_000,
  });
}

export function profilePhotoQuery(userId: string, photoUrl: string | null) {
  return queryOptions({
    queryKey: ['profile', 'photo', userId, photoUrl],
    queryFn: ({ signal }) => apiBlob(profilePhotoPath(userId), { signal }),
    enabled: photoUrl !== null,
    staleTime: Infinity,
  });
}
