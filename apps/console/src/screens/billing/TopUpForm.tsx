import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Card,
  Group,
  Input,
  NumberInput,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconShoppingCartDollar } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  defaultPurchaseCents,
  maxPurchaseCents,
  minPurchaseCents,
  type PaymentMethod,
  paymentMethodSchema,
  type Profile,
  validationMessages,
  type VatRate,
} from '@verbatim/contracts';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, isGlobalFailure } from '../../api/ApiRequestError';
import { documentNavigation } from '../../app/documentNavigation';
import { showServerValidation } from '../../forms/serverValidation';
import { useValidationText } from '../../forms/useValidationText';
import { notify } from '../../notifications/notify';
import { countriesQuery, createPaymentSession, fetchVatRate } from './billingApi';
import { checkoutAmounts } from './checkoutAmounts';
import { ConfirmPaymentModal, type PaymentReview } from './ConfirmPaymentModal';
import { useCountryOptions } from './countryOptions';
import { paymentInitOf, type TopUpFormInput, type TopUpFormOutput, topUpFormSchema } from './topUpFormSchema';

const paymentMethods: readonly PaymentMethod[] = paymentMethodSchema.options;

/** Fields a 400 of `POST /limiter/payment-sessions` may point at. */
const payloadFields = [
  'email',
  'full_name',
  'customerType',
  'company_name',
  'company_address',
  'vat_number',
  'countryIso',
  'paymentMethod',
  'credits',
] as const;

/**
 * Spec §4 Payment: Checkout validates the form, checks the VAT number with the server and opens the
 * confirm modal; Confirm creates the provider's checkout session and leaves for it.
 */
export function TopUpForm({ profile }: { profile: Profile | undefined }) {
  const { t } = useTranslation();
  const validationText = useValidationText();
  const headingId = useId();
  const countries = useQuery(countriesQuery);
  const countryOptions = useCountryOptions(countries.data);
  const [review, setReview] = useState<PaymentReview | null>(null);
  const { register, control, handleSubmit, setError, formState } = useForm<
    TopUpFormInput,
    unknown,
    TopUpFormOutput
  >({
    resolver: zodResolver(topUpFormSchema),
    defaultValues: {
      credits: defaultPurchaseCents / 100,
      email: profile?.email ?? '',
      full_name: profile?.fullName ?? '',
      countryIso: '',
      customerType: 'private',
      company_name: '',
      company_address: '',
      vat_number: '',
    },
  });
  const isCompany = useWatch({ control, name: 'customerType' }) === 'company';
  const { errors } = formState;

  const vatCheck = useMutation({
    mutationFn: ({ country, vatNumber }: { country: string; vatNumber: string }) =>
      fetchVatRate(country, vatNumber),
    // Problems of the VAT check are shown on the fields they concern (see onVatCheckFailure).
    meta: { successMessage: false, errorMessage: false },
  });
  const startCheckout = useMutation({
    mutationFn: createPaymentSession,
    meta: {
      successMessage: false,
      errorMessage: 'screens.billing.checkoutFailed',
      // A provider that cannot be reached is worth a retry from here, not the general error page.
      handledErrorCodes: ['PAYMENT_PROVIDER_ERROR'],
    },
    onSuccess: (session) => documentNavigation.assign(session.url),
    onError: (error) => {
      if (showServerValidation<TopUpFormInput>(error, payloadFields, setError)) setReview(null);
    },
  });

  const onVatCheckFailure = (error: unknown) => {
    if (isGlobalFailure(error)) return; // the general error page has taken over
    if (error instanceof ApiRequestError && error.code === 'COUNTRY_UNKNOWN') {
      setError(
        'countryIso',
        { type: 'server', message: validationMessages.countryInvalid },
        { shouldFocus: true },
      );
      return;
    }
    let shown = false;
    if (error instanceof ApiRequestError && error.code === 'VALIDATION_FAILED') {
      for (const issue of error.details ?? []) {
        const field =
          issue.path[0] === 'vatNumber' ? 'vat_number' : issue.path[0] === 'country' ? 'countryIso' : null;
        if (!field) continue;
        setError(field, { type: 'server', message: issue.message });
        shown = true;
      }
    }
    if (!shown) notify.error({ title: t('toast.errorTitle'), message: t('screens.billing.vatCheckFailed') });
  };

  const onCheckout = handleSubmit(async (form) => {
    // Named in the interface language, as in the select; the API names countries in English.
    const countryName =
      countryOptions.find((option) => option.value === form.countryIso)?.label ?? form.countryIso;
    let rate: VatRate;
    try {
      rate = await vatCheck.mutateAsync({ country: form.countryIso, vatNumber: form.vat_number });
    } catch (error) {
      onVatCheckFailure(error);
      return;
    }
    if (form.vat_number !== '' && !rate.isValidVATNumber) {
      setError(
        'vat_number',
        { type: 'server', message: t('screens.billing.vatNumberRejected', { country: countryName }) },
        { shouldFocus: true },
      );
      return;
    }
    setReview({ form, rate, countryName, amounts: checkoutAmounts(form.credits, rate.standardRate) });
  });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} fz="lg" id={headingId} mb={4}>
        {t('screens.billing.topUpHeading')}
      </Title>
      <Text fz="sm" c="dimmed" mb="md">
        {t('screens.billing.topUpIntro')}
      </Text>
      <form onSubmit={(event) => void onCheckout(event)} noValidate>
        <Stack gap="md">
          <Controller
            control={control}
            name="credits"
            render={({ field }) => (
              <NumberInput
                label={t('screens.billing.credits')}
                description={t('screens.billing.creditsHint', {
                  min: minPurchaseCents / 100,
                  max: maxPurchaseCents / 100,
                })}
                required
                prefix="$"
                min={minPurchaseCents / 100}
                max={maxPurchaseCents / 100}
                step={10}
                decimalScale={2}
                allowNegative={false}
                // No clamping on blur: an amount out of range gets the message of spec §5 instead.
                clampBehavior="none"
                maw={{ sm: 240 }}
                name={field.name}
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={validationText(errors.credits?.message)}
              />
            )}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('screens.billing.email')}
              type="email"
              autoComplete="email"
              required
              {...register('email')}
              error={validationText(errors.email?.message)}
            />
            <TextInput
              label={t('screens.billing.fullName')}
              autoComplete="name"
              required
              maxLength={128}
              {...register('full_name')}
              error={validationText(errors.full_name?.message)}
            />
          </SimpleGrid>
          <Controller
            control={control}
            name="countryIso"
            render={({ field }) => (
              <Select
                label={t('screens.billing.country')}
                placeholder={t('screens.billing.countryPlaceholder')}
                required
                searchable
                nothingFoundMessage={t('screens.billing.countryNotFound')}
                data={countryOptions}
                disabled={countries.isPending}
                maw={{ sm: 'calc(50% - var(--mantine-spacing-md) / 2)' }}
                name={field.name}
                ref={field.ref}
                value={field.value === '' ? null : field.value}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                error={validationText(errors.countryIso?.message)}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <Controller
            control={control}
            name="customerType"
            render={({ field }) => (
              <Input.Wrapper
                labelElement="div"
                label={t('screens.billing.customerType')}
                error={validationText(errors.customerType?.message)}
              >
                <div>
                  <SegmentedControl
                    mt={4}
                    aria-label={t('screens.billing.customerType')}
                    data={[
                      { value: 'private', label: t('screens.billing.customerTypes.private') },
                      { value: 'company', label: t('screens.billing.customerTypes.company') },
                    ]}
                    value={field.value}
                    onChange={field.onChange}
                  />
                </div>
              </Input.Wrapper>
            )}
          />
          {isCompany && (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label={t('screens.billing.companyName')}
                autoComplete="organization"
                required
                maxLength={128}
                {...register('company_name')}
                error={validationText(errors.company_name?.message)}
              />
              <TextInput
                label={t('screens.billing.vatNumber')}
                description={t('screens.billing.vatNumberHint')}
                maxLength={32}
                {...register('vat_number')}
                error={validationText(errors.vat_number?.message)}
              />
              <TextInput
                label={t('screens.billing.companyAddress')}
                autoComplete="street-address"
                maxLength={512}
                style={{ gridColumn: '1 / -1' }}
                {...register('company_address')}
                error={validationText(errors.company_address?.message)}
              />
            </SimpleGrid>
          )}
          <Controller
            control={control}
            name="paymentMethod"
            render={({ field }) => (
              <Radio.Group
                label={t('screens.billing.paymentMethod')}
                description={t('screens.billing.paymentMethodHint')}
                required
                name={field.name}
                value={field.value ?? null}
                onChange={field.onChange}
                error={validationText(errors.paymentMethod?.message)}
              >
                <Group mt="xs" gap="lg">
                  {paymentMethods.map((method, index) => (
                    <Radio
                      key={method}
                      value={method}
                      label={t(`screens.billing.paymentMethods.${method}`)}
                      ref={index === 0 ? field.ref : undefined}
                      onBlur={field.onBlur}
                    />
                  ))}
                </Group>
              </Radio.Group>
            )}
          />
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={vatCheck.isPending}
              leftSection={<IconShoppingCartDollar size={18} aria-hidden />}
            >
              {t('screens.billing.checkout')}
            </Button>
          </Group>
        </Stack>
      </form>
      {review && (
        <ConfirmPaymentModal
          review={review}
          opened
          onClose={() => setReview(null)}
          // After success the browser is leaving for the checkout: keep the button busy until then.
          pending={startCheckout.isPending || startCheckout.isSuccess}
          onConfirm={() => startCheckout.mutate(paymentInitOf(review.form, review.amounts))}
        />
      )}
    </Card>
  );
}
