import { useQuery } from '@tanstack/react-query';
import type { Profile } from '@verbatim/contracts';
import { useEffect, useState } from 'react';
import { profilePhotoQuery } from './profileApi';

/**
 * A blob URL of the profile photo: the photo needs the bearer token, which an <img src> cannot
 * send, so it is fetched and shown from memory. Null while there is none.
 */
export function useProfilePhotoUrl(profile: Profile | undefined): string | null {
  const photo = useQuery({
    ...profilePhotoQuery(profile?.id ?? '', profile?.photoUrl ?? null),
    enabled: Boolean(profile?.photoUrl),
  });
  const url = useObjectUrl(photo.data);
  return profile?.photoUrl ? url : null;
}

/** An object URL for a blob, revoked when the blob changes or the component goes. */
export function useObjectUrl(blob: Blob | undefined | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(blob);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob]);
  return url;
}
