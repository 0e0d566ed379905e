import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../app/routes';
import { createI18n, languageStorageKey } from '../i18n/createI18n';
import { renderRoutes } from '../test/renderRoutes';
import { stubApi } from '../test/stubApi';

beforeEach(() => {
  stubApi();
  document.documentElement.lang = 'en';
});

describe('language switch', () => {
  it('translates the interface, saves the choice and sets <html lang>', async () => {
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Welcome to Verbatim Test' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Français' }));

    expect(await screen.findByRole('heading', { name: 'Bienvenue sur Verbatim Test' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Premiers pas' })).toBeInTheDocument();
    expect(localStorage.getItem(languageStorageKey)).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('starts in the saved language on the next visit', async () => {
    localStorage.setItem(languageStorageKey, 'fr');

    const i18n = await createI18n();

    expect(i18n.resolvedLanguage).toBe('fr');
    expect(i18n.t('screens.notFound.goBack')).toBe('Retour');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('switches back to English', async () => {
    localStorage.setItem(languageStorageKey, 'fr');
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Bienvenue sur Verbatim Test' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'English' }));

    expect(await screen.findByRole('heading', { name: 'Welcome to Verbatim Test' })).toBeInTheDocument();
    expect(localStorage.getItem(languageStorageKey)).toBe('en');
  });
});
