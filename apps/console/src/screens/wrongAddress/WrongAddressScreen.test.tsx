import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { theme } from '../../app/theme';
import { createI18n } from '../../i18n/createI18n';
import { WrongAddressScreen } from './WrongAddressScreen';

describe('wrong address screen', () => {
  it('says which address to use and which variable sets it', async () => {
    const i18n = await createI18n();
    await i18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={i18n}>
        <MantineProvider theme={theme}>
          <WrongAddressScreen
            address={{
              publicUrl: 'http://localhost:8080',
              publicPageUrl: 'http://localhost:8080/login?next=%2Fhome',
              openedAt: 'http://192.168.1.5:8080',
            }}
          />
        </MantineProvider>
      </I18nextProvider>,
    );

    expect(screen.getByRole('heading', { name: 'Open this console at its own address' })).toBeInTheDocument();
    expect(
      screen.getByText('You opened it at http://192.168.1.5:8080, where signing in is not possible.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'http://localhost:8080' })).toHaveAttribute(
      'href',
      'http://localhost:8080/login?next=%2Fhome',
    );
    expect(screen.getByText('PUBLIC_URL')).toBeInTheDocument();
    expect(screen.getByText('PUBLIC_URL=http://192.168.1.5:8080')).toBeInTheDocument();
  });
});
