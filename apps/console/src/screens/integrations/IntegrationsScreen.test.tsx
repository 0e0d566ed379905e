import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactsPage, CrmProviderList, Integration, IntegrationList } from '@verbatim/contracts';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi, type StubAnswer } from '../../test/stubApi';

const providers: CrmProviderList = {
  providers: [
    {
      id: 'hubspot',
      name: 'HubSpot',
      connectMethods: ['token'],
      capabilities: ['contacts', 'contact_search', 'notes', 'tasks'],
      maxBodyChars: 65_536,
    },
    {
      id: 'pipedrive',
      name: 'Pipedrive',
      connectMethods: ['oauth', 'token'],
      capabilities: ['contacts', 'contact_search', 'notes', 'tasks'],
      maxBodyChars: 100_000,
    },
  ],
};

const connection: Integration = {
  id: 'int_1',
  provider: 'hubspot',
  accountName: 'HubSpot 4410001',
  method: 'token',
  status: 'connected',
  createdAt: '2026-11-23T10:00:00.000Z',
};

const contacts: ContactsPage = {
  contacts: [
    {
      id: '1001',
      type: 'contact',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      company: 'Engines',
    },
  ],
  next_page_url: null,
};

function requestsTo(fetchMock: ReturnType<typeof stubApi>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([input, init]) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.split('?')[0] === path && (init?.method ?? 'GET') === method;
  });
}

describe('integrations screen', () => {
  it('connects HubSpot with a token, lists the connection and its contacts, and disconnects after confirmation', async () => {
    const list: StubAnswer = { body: { integrations: [] } satisfies IntegrationList };
    const fetchMock = stubApi({
      '/api/v1/providers': { body: providers },
      '/api/v1/integrations': list,
      'POST /api/v1/integrations': { status: 201, body: { kind: 'connected', integration: connection } },
      'DELETE /api/v1/integrations/int_1': { status: 204, body: undefined },
      '/api/v1/contacts': { body: contacts },
      '/api/v1/contacts/contact-url': {
        body: { url: 'https://app.hubspot.com/contacts/4410001/record/0-1/1001' },
      },
    });
    await renderRoutes(routes, { initialEntries: ['/integrations'], signedIn: true });
    await screen.findByRole('heading', { level: 1, name: 'Integrations' });
    expect(await screen.findByText('No CRM connected yet')).toBeInTheDocument();

    const hubspot = within(screen.getByRole('region', { name: 'HubSpot' }));
    // Only Pipedrive has an OAuth app on this server.
    expect(hubspot.queryByRole('button', { name: 'Connect with HubSpot' })).toBeNull();
    expect(
      within(screen.getByRole('region', { name: 'Pipedrive' })).getByRole('button', {
        name: 'Connect with Pipedrive',
      }),
    ).toBeInTheDocument();
    await userEvent.click(hubspot.getByRole('button', { name: 'Use a personal token' }));
    await userEvent.type(hubspot.getByLabelText('HubSpot token'), 'pat-na1-secret-token');
    list.body = { integrations: [connection] } satisfies IntegrationList;
    await userEvent.click(hubspot.getByRole('button', { name: 'Connect' }));

    expect(await screen.findByText('Integration connected')).toBeInTheDocument();
    const [, init] = requestsTo(fetchMock, 'POST', '/api/v1/integrations')[0] ?? [];
    expect(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined).toEqual({
      provider: 'hubspot',
      token: 'pat-na1-secret-token',
    });
    const connections = within(await screen.findByRole('table', { name: 'Connections' }));
    expect(await connections.findByText('HubSpot 4410001')).toBeInTheDocument();
    expect(connections.getByText('Connected')).toBeInTheDocument();

    const contactTable = within(await screen.findByRole('table', { name: 'Contacts' }));
    expect(await contactTable.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(await contactTable.findByRole('link', { name: /Open in HubSpot/ })).toHaveAttribute(
      'href',
      'https://app.hubspot.com/contacts/4410001/record/0-1/1001',
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    await userEvent.click(connections.getByRole('button', { name: 'Disconnect' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Disconnect this CRM?' }));
    expect(dialog.getByText('Disconnect HubSpot (HubSpot 4410001)?')).toBeInTheDocument();
    list.body = { integrations: [] } satisfies IntegrationList;
    await userEvent.click(dialog.getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Integration disconnected')).toBeInTheDocument();
    await waitFor(() =>
      expect(requestsTo(fetchMock, 'DELETE', '/api/v1/integrations/int_1')).toHaveLength(1),
    );
  });

  it('says in the token form when the CRM cannot be reached, and keeps the form for another try', async () => {
    stubApi({
      '/api/v1/providers': { body: providers },
      '/api/v1/integrations': { body: { integrations: [] } },
      'POST /api/v1/integrations': {
        status: 502,
        body: { code: 'CRM_UNREACHABLE', message: 'HubSpot could not be reached. Try again in a moment.' },
      },
    });
    await renderRoutes(routes, { initialEntries: ['/integrations'], signedIn: true });
    const hubspot = within(await screen.findByRole('region', { name: 'HubSpot' }));
    await userEvent.click(hubspot.getByRole('button', { name: 'Use a personal token' }));
    await userEvent.type(hubspot.getByLabelText('HubSpot token'), 'pat-na1-secret-token');
    await userEvent.click(hubspot.getByRole('button', { name: 'Connect' }));
    expect(
      await hubspot.findByText('The CRM cannot be reached right now. Please try again in a minute.'),
    ).toBeInTheDocument();
    expect(hubspot.getByRole('button', { name: 'Connect' })).toBeEnabled();
  });

  it('says how the OAuth return went', async () => {
    stubApi({
      '/api/v1/providers': { body: providers },
      '/api/v1/integrations': { body: { integrations: [] } },
    });
    await renderRoutes(routes, {
      initialEntries: ['/integrations?provider=pipedrive&error=CRM_OAUTH_STATE_INVALID'],
      signedIn: true,
    });
    expect(
      await screen.findByText('This authorization has expired or was already used. Please connect again.'),
    ).toBeInTheDocument();
  });
});
