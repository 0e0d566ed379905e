import { Button, VisuallyHidden } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { homePath } from '../../app/paths';
import { useConsoleConfig } from '../../runtimeConfig/consoleConfigQuery';

/** Go Home and, when the installation has one, Contact us: inside the router only. */
export function GeneralErrorActions() {
  const { t } = useTranslation();
  const contactUrl = useConsoleConfig().data?.links.contact;
  return (
    <>
      <Button component={Link} to={homePath} leftSection={<IconHome size={18} aria-hidden />}>
        {t('screens.generalError.goHome')}
      </Button>
      {contactUrl && (
        <Button component="a" href={contactUrl} target="_blank" rel="noopener noreferrer" variant="default">
          {t('screens.generalError.contactUs')}
          <VisuallyHidden> {t('chrome.opensInNewTab')}</VisuallyHidden>
        </Button>
      )}
    </>
  );
}
