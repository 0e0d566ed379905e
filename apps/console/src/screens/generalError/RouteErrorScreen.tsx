import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { DocumentMetadata } from '../../app/DocumentMetadata';
import { newErrorId } from '../../app/newErrorId';
import { PublicLayout } from '../../chrome/PublicLayout';
import { GeneralErrorActions } from './GeneralErrorActions';
import { GeneralErrorPanel } from './GeneralErrorPanel';

/** Error element of the root route: any error thrown while rendering or loading a screen. */
export function RouteErrorScreen() {
  const { t } = useTranslation();
  const error = useRouteError();
  const [errorId] = useState(newErrorId);

  useEffect(() => {
    console.error(`[${errorId}] Unhandled error while showing a screen`, error);
  }, [errorId, error]);

  return (
    <>
      <DocumentMetadata
        title={t('screens.generalError.title')}
        description={t('screens.generalError.description')}
      />
      <PublicLayout>
        <GeneralErrorPanel errorId={errorId} actions={<GeneralErrorActions />} />
      </PublicLayout>
    </>
  );
}
