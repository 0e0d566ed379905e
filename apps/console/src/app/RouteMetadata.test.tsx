import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/renderRoutes';
import { stubApi } from '../test/stubApi';
import { routes } from './routes';

function metaDescription() {
  return document.head.querySelector('meta[name="description"]')?.getAttribute('content');
}

beforeEach(() => {
  stubApi();
});

describe('page title and description', () => {
  it('names the page and the product from the runtime configuration', async () => {
    await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });

    await waitFor(() => expect(document.title).toBe('Getting started · Verbatim Test'));
    expect(metaDescription()).toMatch(/^Start transcribing speech/);
  });

  it('follows the route', async () => {
    const { router } = await renderRoutes(routes, { initialEntries: ['/home'], signedIn: true });
    await waitFor(() => expect(document.title).toBe('Getting started · Verbatim Test'));

    await router.navigate('/somewhere-else');

    await waitFor(() => expect(document.title).toBe('Page not found · Verbatim Test'));
    expect(metaDescription()).toBe('The page you were looking for does not exist.');
  });

  it('falls back to the default product name until the configuration arrives', async () => {
    stubApi({ '/api/v1/console-config': { status: 404, body: { code: 'ROUTE_NOT_FOUND', message: 'x' } } });

    await renderRoutes(routes, { initialEntries: ['/error?id=1'] });

    await waitFor(() => expect(document.title).toBe('Error · Verbatim'));
  });
});
