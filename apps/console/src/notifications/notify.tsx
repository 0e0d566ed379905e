import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';

/** Spec §9: toasts hide themselves after 3 s. */
export const toastAutoCloseMs = 3000;

export interface Toast {
  /** Already translated. */
  title?: string;
  /** Already translated. */
  message: string;
}

const looks = {
  success: { color: 'teal', Icon: IconCheck },
  error: { color: 'red', Icon: IconAlertTriangle },
} as const;

function show(kind: keyof typeof looks, { title, message }: Toast) {
  const { color, Icon } = looks[kind];
  notifications.show({
    title,
    message,
    color,
    icon: <Icon size={18} aria-hidden />,
    autoClose: toastAutoCloseMs,
  });
}

/** The only way the console shows a toast, so every toast looks and times out the same. */
export const notify = {
  success: (toast: Toast) => show('success', toast),
  error: (toast: Toast) => show('error', toast),
};
