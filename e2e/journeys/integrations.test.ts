import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { HubSpotStandIn } from '../../apps/server/src/test-support/crm/hubspot-stand-in.js';
import { createVerifiedAccount, newEmail, type Account } from '../support/accounts.js';
import { desktopViewport, journey } from '../support/journey.js';
import { repoRoot } from '../support/paths.js';
import { startProductServer, type ProductServer } from '../support/productServer.js';
import { signIn } from '../support/signIn.js';

/** 3.7 s of LibriSpeech dev-clean: "NO ONE WHO IS HIMSELF HONEST WILL DOUBT MY BEING SO". */
const recording = join(resolve(repoRoot, '../shared/testdata'), 'en/ls-dev-clean-2412-153948-0002.flac');

/**
 * Integrations against a local stand-in of HubSpot's API: the product runs with HUBSPOT_API_URL
 * and HUBSPOT_APP_URL pointed at it (its own server, so the journeys' shared one stays unconfigured).
 */
describe('integrations', () => {
  const hubspot = new HubSpotStandIn();
  let server: ProductServer;
  let account: Account & { accessToken: string };
  let hubspotUrl = '';

  beforeAll(async () => {
    hubspotUrl = await hubspot.start();
    hubspot.addContacts(45);
    server = await startProductServer({ env: { HUBSPOT_API_URL: hubspotUrl, HUBSPOT_APP_URL: hubspotUrl } });
    account = await createVerifiedAccount(newEmail('crm'), server);
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await hubspot.close();
  });

  journey(
    'connect HubSpot with a private app token, browse and search its contacts, then disconnect',
    async ({ browser }) => {
      const context = await browser.newContext({ baseURL: server.baseUrl, viewport: desktopViewport });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      try {
        await signIn(page, account, '/home');
        await page.getByRole('link', { name: 'Integrations' }).click();
        await page.waitForURL((url) => url.pathname === '/integrations');
        await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
        await page.getByText('No CRM connected yet').waitFor();

        const card = page.getByRole('region', { name: 'HubSpot' });
        // Without an OAuth app configured, only the token is offered.
        expect(await card.getByRole('button', { name: 'Connect with HubSpot' }).count()).toBe(0);
        await card.getByRole('button', { name: 'Use a personal token' }).click();
        await card.getByText(/Settings → Integrations → Private apps/).waitFor();

        // A token HubSpot refuses is explained in place.
        await card.getByLabel('HubSpot token').fill('pat-na1-0000-not-a-token');
        await card.getByRole('button', { name: 'Connect', exact: true }).click();
        await card
          .getByRole('alert')
          .getByText('The CRM refused this token. Check that you copied all of it.')
          .waitFor();

        await card.getByLabel('HubSpot token').fill(hubspot.issuePrivateAppToken());
        await card.getByRole('button', { name: 'Connect', exact: true }).click();
        await page.getByText('Integration connected').waitFor();
        const connections = page.getByRole('table', { name: 'Connections' });
        await connections.getByRole('cell', { name: `HubSpot ${hubspot.portalId}` }).waitFor();
        await connections.locator('tbody').getByText('Connected', { exact: true }).waitFor();

        // The contact browser: 20 a page, Load more follows next_page_url.
        const contacts = page.getByRole('table', { name: 'Contacts' });
        await contacts.getByRole('cell', { name: 'Ada1 Lovelace1', exact: true }).waitFor();
        expect(await contacts.locator('tbody tr').count()).toBe(20);
        await page.getByRole('button', { name: 'Load more' }).click();
        await contacts.getByRole('cell', { name: 'Ada40 Lovelace40', exact: true }).waitFor();
        expect(await contacts.locator('tbody tr').count()).toBe(40);
        await page.getByRole('button', { name: 'Load more' }).click();
        await contacts.getByRole('cell', { name: 'Ada45 Lovelace45', exact: true }).waitFor();
        expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

        const open = contacts
          .getByRole('row', { name: /Ada2 Lovelace2 ada2@example.com/ })
          .getByRole('link', { name: 'Open in HubSpot' });
        expect(await open.getAttribute('href')).toBe(
          `${hubspotUrl}/contacts/${hubspot.portalId}/record/0-1/${hubspot.contacts[1]?.id}`,
        );

        await page.getByLabel('Search', { exact: true }).fill('lovelace4');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await contacts.getByRole('cell', { name: 'Ada45 Lovelace45', exact: true }).waitFor();
        expect(await contacts.locator('tbody tr').count()).toBe(7); // Ada4 and Ada40–45

        await connections.getByRole('button', { name: 'Disconnect' }).click();
        const dialog = page.getByRole('dialog', { name: 'Disconnect this CRM?' });
        await dialog.getByText(`Disconnect HubSpot (HubSpot ${hubspot.portalId})?`).waitFor();
        await dialog.getByRole('button', { name: 'Disconnect' }).click();
        await page.getByText('Integration disconnected').waitFor();
        await page.getByText('No CRM connected yet').waitFor();
      } finally {
        await context.close();
      }
    },
  );

  journey(
    'send a done transcript from Submitted files to a HubSpot contact as a note, and see the delivery with its link',
    async ({ browser }) => {
      // A transcript through the public jobs API, done by the server's speech engine.
      const api = (path: string, init: RequestInit = {}) =>
        fetch(new URL(`/api/v1${path}`, server.baseUrl), {
          ...init,
          headers: { authorization: `Bearer ${account.accessToken}`, ...init.headers },
        });
      const created = await api('/transcripts/jobs?language=en&fileName=call-with-ada.flac', {
        method: 'POST',
        headers: { 'content-type': 'audio/flac' },
        body: await readFile(recording),
      });
      expect(created.status, await created.clone().text()).toBe(202);
      const { id: fileId } = (await created.json()) as { id: string };
      for (let waited = 0; ; waited += 1) {
        const job = (await (await api(`/transcripts/jobs/${fileId}`)).json()) as {
          transcriptStatus?: string;
        };
        if (job.transcriptStatus === 'done') break;
        if (job.transcriptStatus === 'processing_failed' || waited > 180)
          throw new Error('the transcript is not done');
        await sleep(1000);
      }

      const context = await browser.newContext({ baseURL: server.baseUrl, viewport: desktopViewport });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      try {
        await signIn(page, account, '/integrations');
        const card = page.getByRole('region', { name: 'HubSpot' });
        await card.getByRole('button', { name: 'Use a personal token' }).click();
        await card.getByLabel('HubSpot token').fill(hubspot.issuePrivateAppToken());
        await card.getByRole('button', { name: 'Connect', exact: true }).click();
        await page.getByText('Integration connected').waitFor();

        await page.getByRole('link', { name: 'Submitted files' }).click();
        await page.waitForURL((url) => url.pathname === '/submitted-files');
        await page.getByRole('button', { name: `Actions for file ${fileId}` }).click();
        await page.getByRole('menuitem', { name: 'Send to CRM' }).click();
        const dialog = page.getByRole('dialog', { name: 'Send to CRM' });
        await dialog.getByLabel('Find a contact').fill('ada7@example.com');
        await dialog.getByRole('button', { name: 'Search', exact: true }).click();
        await dialog.getByRole('textbox', { name: 'Contact', exact: true }).click();
        await page.getByRole('option', { name: 'Ada7 Lovelace7 · ada7@example.com' }).click();
        await dialog.getByRole('button', { name: 'Send', exact: true }).click();
        await page.getByText('Sent to the CRM', { exact: true }).first().waitFor();
        await dialog.getByText('Delivered').waitFor({ timeout: 30_000 });
        const contactId = hubspot.contacts[6]?.id;
        expect(await dialog.getByRole('link', { name: 'Open the record' }).getAttribute('href')).toBe(
          `${hubspotUrl}/contacts/${hubspot.portalId}/record/0-1/${contactId}`,
        );
        const note = hubspot.engagements.find(
          (engagement) => engagement.associations[0]?.contactId === contactId,
        );
        expect(note?.properties.hs_note_body).toContain('call-with-ada.flac');
        expect(note?.properties.hs_note_body?.toLowerCase()).toContain('honest');
      } finally {
        await context.close();
      }
    },
    240_000,
  );
});
