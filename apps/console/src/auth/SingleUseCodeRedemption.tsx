import { Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { AuthCard } from '../chrome/AuthCard';
import { CenteredLoader } from '../chrome/CenteredLoader';

export interface SingleUseCodeRedemptionProps {
  heading: string;
  /** Shown under the loader and read out by screen readers while the code is redeemed. */
  inProgress: string;
  /** Starts redeeming the code; the caller handles what follows (sign-in, failure). */
  redeem: () => void;
}

/**
 * The screen of a sign-in step that redeems a single-use code as soon as it opens (a verification
 * link, a return from Google or GitHub): redeems it once and shows a wait meanwhile.
 */
export function SingleUseCodeRedemption({ heading, inProgress, redeem }: SingleUseCodeRedemptionProps) {
  const started = useRef(false);

  useEffect(() => {
    // The code is single-use: StrictMode's second effect run must not redeem it again.
    if (started.current) return;
    started.current = true;
    redeem();
  }, [redeem]);

  return (
    <AuthCard title={heading}>
      <Stack align="center" gap="sm">
        <CenteredLoader label={inProgress} />
        <Text>{inProgress}</Text>
      </Stack>
    </AuthCard>
  );
}
