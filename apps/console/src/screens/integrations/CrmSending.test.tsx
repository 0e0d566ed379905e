import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  ContactsPage,
  CrmDelivery,
  CrmDeliveryList,
  FilesPage,
  Integration,
  IntegrationList,
  SubmittedFile,
} from '@verbatim/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import '../../test/blobArrayBuffer';
import { renderRoutes } from '../../test/renderRoutes';
import { stubApi } from '../../test/stubApi';
import { SendToCrmModal } from './SendToCrmModal';

const connection: Integration = {
  id: 'int_1',
  provider: 'hubspot',
  accountName: 'HubSpot 4410001',
  method: 'token',
  status: 'connected',
  createdAt: '2026-11-23T10:00:00.000Z',
};
const integrations: IntegrationList = { integrations: [connection] };
const contacts: ContactsPage = {
  contacts: [
    {
      id: '1001',
      type: 'contact',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      company: null,
    },
  ],
  next_page_url: null,
};

function deliveryOf(overrides: Partial<CrmDelivery> = {}): CrmDelivery {
  return {
    id: 'dlv_1',
    transcriptId: 'f_1',
    integrationId: 'int_1',
    provider: 'hubspot',
    contactId: '1001',
    kind: 'note',
    status: 'delivered',
    attempts: 1,
    lastErrorCode: null,
    lastError: null,
    recordUrl: 'https://app.hubspot.com/contacts/4410001/record/0-1/1001',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:01.000Z',
    ...overrides,
  };
}

function bodyOf(fetchMock: ReturnType<typeof stubApi>, method: string, path: string): unknown {
  const call = fetchMock.mock.calls.find(
    ([input, init]) => typeof input === 'string' && input.split('?')[0] === path && init?.method === method,
  );
  return call ? JSON.parse(call[1]?.body as string) : undefined;
}

async function pickContact(scope: Pick<typeof screen, 'getByRole'>) {
  const contact = scope.getByRole('textbox', { name: 'Contact' });
  await vi.waitFor(() => expect(contact).toHaveAttribute('placeholder', 'Pick a contact'));
  await userEvent.click(contact);
  await userEvent.click(await screen.findByText('Ada Lovelace · ada@example.com'));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sending to the CRM', { timeout: 30_000 }, () => {
  it("sends a live session's text to a contact as a note and shows the delivery with its record link", async () => {
    const fetchMock = stubApi({
      '/api/v1/integrations': { body: integrations },
      '/api/v1/contacts': { body: contacts },
      'POST /api/v1/crm-deliveries': {
        status: 202,
        body: deliveryOf({ transcriptId: 'txt_abc', status: 'queued', recordUrl: null }),
      },
      'GET /api/v1/crm-deliveries': {
        body: { deliveries: [deliveryOf({ transcriptId: 'txt_abc' })] } satisfies CrmDeliveryList,
      },
    });
    await renderRoutes(
      [
        {
          path: '/',
          element: (
            <SendToCrmModal
              transcript={{ id: null, name: 'Live transcription', text: 'We agreed on a demo.' }}
              onClose={() => undefined}
            />
          ),
        },
      ],
      { signedIn: true },
    );
    const modal = within(await screen.findByRole('dialog', { name: 'Send to CRM' }));
    const send = await modal.findByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await pickContact(modal);
    await userEvent.click(send);

    expect(await modal.findByRole('link', { name: 'Open the record' })).toHaveAttribute(
      'href',
      'https://app.hubspot.com/contacts/4410001/record/0-1/1001',
    );
    expect(modal.getByText('Delivered')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', '/api/v1/crm-deliveries')).toEqual({
      text: 'We agreed on a demo.',
      title: 'Live transcription',
      crm: { integrationId: 'int_1', contactId: '1001', as: 'note' },
    });
    const listed = fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(listed).toContain('/api/v1/crm-deliveries?transcriptId=txt_abc');
  });

  it("shows each done file's latest delivery on Submitted files when a CRM is connected", async () => {
    const file: SubmittedFile = {
      id: 'f_1',
      creationDate: '2026-11-23T09:05:07.000Z',
      fileName: 'call.mp3',
      languageCode: 'en',
      detectedLanguage: 'en',
      duration: 64,
      callbackUrl: null,
      size: 1000,
      uploadedSize: 1000,
      isCompleted: true,
      transcriptStatus: 'done',
      progress: 100,
      failureReason: null,
      webhookStatus: 'none',
    };
    const page: FilesPage = { list: [file], pagination: { next_page: null, total: 1 } };
    stubApi({
      '/api/v1/files/third-party': { body: page },
      '/api/v1/integrations': { body: integrations },
      '/api/v1/crm-deliveries': { body: { deliveries: [deliveryOf()] } satisfies CrmDeliveryList },
    });
    await renderRoutes(routes, { initialEntries: ['/submitted-files'], signedIn: true });
    const table = within(await screen.findByRole('table', { name: 'Submitted files' }));
    expect(await table.findByRole('columnheader', { name: 'CRM' })).toBeInTheDocument();
    expect(await table.findByText('CRM: Delivered')).toBeInTheDocument();
    expect(table.getByRole('link', { name: 'Open the record' })).toHaveAttribute(
      'href',
      'https://app.hubspot.com/contacts/4410001/record/0-1/1001',
    );
  });

  it('uploads with "Send to CRM when done": the placeholder carries the contact and the task', async () => {
    const fetchMock = stubApi({
      '/api/v1/files/third-party': { body: { list: [], pagination: { next_page: null, total: 0 } } },
      '/api/v1/settings/transcript-languages': {
        body: [{ code: 'en', name: 'English', isRealtimeSupported: true }],
      },
      '/api/v1/integrations': { body: integrations },
      '/api/v1/contacts': { body: contacts },
      'POST /api/v1/media/recordings': { body: { fileId: 'f_9', size: 0, isCompleted: false } },
      'PUT /api/v1/media/f_9': { body: { fileId: 'f_9', size: 5, isCompleted: true } },
    });
    await renderRoutes(routes, { initialEntries: ['/submitted-files?upload'], signedIn: true });
    const modal = within(await screen.findByRole('dialog', { name: 'Upload file' }));
    await vi.waitFor(() => expect(modal.getByRole('textbox', { name: 'Language' })).toHaveValue('English'));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['audio'], 'memo.wav', { type: 'audio/wav' }));
    await userEvent.click(await modal.findByRole('switch', { name: /Send to CRM when done/ }));
    // Without a contact, nothing is sent.
    await userEvent.click(modal.getByRole('button', { name: 'Upload' }));
    expect(await modal.findByRole('alert')).toHaveTextContent('Pick a contact');
    expect(bodyOf(fetchMock, 'POST', '/api/v1/media/recordings')).toBeUndefined();

    await pickContact(modal);
    await userEvent.click(modal.getByRole('radio', { name: 'Task' }));
    const due = modal.getByLabelText(/Due/);
    await userEvent.clear(due);
    await userEvent.type(due, '2026-12-01T09:30');
    await userEvent.click(modal.getByRole('button', { name: 'Upload' }));

    expect(await screen.findByText('File uploaded: its transcription has started')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', '/api/v1/media/recordings')).toMatchObject({
      fileName: 'memo.wav',
      crm: {
        integrationId: 'int_1',
        contactId: '1001',
        as: 'task',
        task: { subject: 'Follow up: memo.wav', dueAt: new Date('2026-12-01T09:30').toISOString() },
      },
    });
  });
});
