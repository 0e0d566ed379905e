import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Code, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { CreatedApiKey } from '@verbatim/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/ApiRequestError';
import { CopyValueButton } from '../../clipboard/CopyValueButton';
import { useValidationText } from '../../forms/useValidationText';
import type { TranslationKey } from '../../i18n/translationKey';
import { apiKeysQuery, generateApiKey } from './apiKeysApi';
import {
  emptyGenerateApiKeyForm,
  type GenerateApiKeyFormInput,
  type GenerateApiKeyFormOutput,
  generateApiKeyFormSchema,
  today,
} from './generateApiKeyFormSchema';

const formFieldOf: Partial<Record<string, keyof GenerateApiKeyFormInput>> = {
  name: 'name',
  expiresAt: 'expiresOn',
  monthlyCapCents: 'monthlyCap',
};

export interface GenerateApiKeyModalProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * Spec §2 Modals, "generate API key": an optional name, expiry date and monthly cap; the secret
 * is shown once, with copy to clipboard, and Generate stays disabled until the modal closes
 * (spec §4), so one opening makes one key.
 */
export function GenerateApiKeyModal({ opened, onClose }: GenerateApiKeyModalProps) {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const { register, handleSubmit, control, reset, setError, formState } = useForm<
    GenerateApiKeyFormInput,
    unknown,
    GenerateApiKeyFormOutput
  >({ resolver: zodResolver(generateApiKeyFormSchema), defaultValues: emptyGenerateApiKeyForm });
  const generate = useMutation({
    mutationFn: generateApiKey,
    meta: { successMessage: 'toast.apiKeyGenerated', errorMessage: 'toast.apiKeyGenerationFailed' },
    onSuccess: (key) => {
      setCreated(key);
      void queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey });
    },
    onError: (error) => {
      // A 400 names the API's fields; each has a field of this form.
      if (!(error instanceof ApiRequestError) || error.code !== 'VALIDATION_FAILED') return;
      for (const issue of error.details ?? []) {
        const field = formFieldOf[String(issue.path[0])];
        if (issue.location === 'body' && field) setError(field, { type: 'server', message: issue.message });
      }
    },
  });
  // Form messages are translation keys; server messages are shown as they come.
  const fieldError = (message: string | undefined) =>
    message?.startsWith('screens.') ? t(message as TranslationKey) : validationText(message);

  const close = () => {
    setCreated(null);
    generate.reset();
    reset(emptyGenerateApiKeyForm);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('screens.apiKeys.generate.title')} centered size="lg">
      <form onSubmit={(event) => void handleSubmit((values) => generate.mutate(values))(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('screens.apiKeys.generate.name')}
            description={t('screens.apiKeys.generate.nameHint')}
            maxLength={64}
            data-autofocus
            disabled={created !== null}
            {...register('name')}
            error={fieldError(formState.errors.name?.message)}
          />
          <TextInput
            type="date"
            label={t('screens.apiKeys.generate.expiresOn')}
            description={t('screens.apiKeys.generate.expiresOnHint')}
            min={today()}
            disabled={created !== null}
            {...register('expiresOn')}
            error={fieldError(formState.errors.expiresOn?.message)}
          />
          <Controller
            control={control}
            name="monthlyCap"
            render={({ field }) => (
              <NumberInput
                label={t('screens.apiKeys.generate.monthlyCap')}
                description={t('screens.apiKeys.generate.monthlyCapHint')}
                prefix="$"
                decimalScale={2}
                min={0}
                allowNegative={false}
                thousandSeparator=","
                disabled={created !== null}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                onBlur={field.onBlur}
                error={fieldError(formState.errors.monthlyCap?.message)}
              />
            )}
          />
          {created && (
            <Alert
              color="yellow"
              variant="light"
              icon={<IconAlertTriangle size={18} aria-hidden />}
              title={t('screens.apiKeys.generate.secretTitle')}
              role="status"
            >
              <Stack gap="xs">
                <Text fz="sm">{t('screens.apiKeys.generate.secretWarning')}</Text>
                <Code
                  block
                  data-testid="new-api-key"
                  style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
                >
                  {created.apiKey}
                </Code>
                <Group>
                  <CopyValueButton
                    value={created.apiKey}
                    label={t('screens.apiKeys.generate.copy')}
                    size="sm"
                  />
                </Group>
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {created ? t('screens.apiKeys.generate.done') : t('screens.apiKeys.generate.cancel')}
            </Button>
            <Button type="submit" loading={generate.isPending} disabled={created !== null}>
              {t('screens.apiKeys.generate.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
