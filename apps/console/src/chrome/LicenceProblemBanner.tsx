import { Alert, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { onPremisePath } from '../app/paths';
import { useConsoleConfig } from '../runtimeConfig/consoleConfigQuery';
import { installationLicenceQuery } from '../screens/onPremise/onPremiseApi';

/** On every screen of the on-premise edition: why transcription is refused, while it is. */
export function LicenceProblemBanner() {
  const { t } = useTranslation();
  const onPremiseEdition = useConsoleConfig().data?.edition === 'on_premise';
  const licence = useQuery({ ...installationLicenceQuery, enabled: onPremiseEdition });
  const problem = onPremiseEdition ? licence.data?.problem : null;
  if (!problem) return null;
  return (
    <Alert color="red" variant="light" role="alert" title={t(`apiErrors.${problem}`)} mb="md">
      {licence.data?.problemMessage}{' '}
      <Anchor component={Link} to={onPremisePath}>
        {t('screens.onPremise.installationTitle')}
      </Anchor>
    </Alert>
  );
}
