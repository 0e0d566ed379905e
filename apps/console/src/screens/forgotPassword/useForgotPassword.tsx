import { useState } from 'react';
import { ForgotPasswordModal } from './ForgotPasswordModal';
import { PasswordResetSentModal } from './PasswordResetSentModal';

/**
 * The recovery request of the login screens: `open` shows the form; the success flag resets when
 * the user leaves (spec §4 Recovery request).
 */
export function useForgotPassword() {
  const [opened, setOpened] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const modals = (
    <>
      <ForgotPasswordModal
        opened={opened}
        onClose={() => setOpened(false)}
        onSent={(email) => {
          setOpened(false);
          setSentTo(email);
        }}
      />
      <PasswordResetSentModal email={sentTo} onClose={() => setSentTo(null)} />
    </>
  );
  return { open: () => setOpened(true), modals };
}
