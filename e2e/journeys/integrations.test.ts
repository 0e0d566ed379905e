import { afterAll, beforeAll, describe, expect } from 'vitest';
import { HubSpotStandIn } from '../../apps/server/src/test-support/crm/hubspot-stand-in.js';
import { createVerifiedAccount, newEmail, type Account } from '../support/accounts.js';
import { desktopViewport, journey } from '../support/journey.js';
import { startProductServer, type ProductServer } from '../support/productServer.js';
import { signIn } from '../support/signIn.js';

/**
 * Integrations against a local stand-in of HubSpot's API: the product runs with HUBSPOT_API_URL
 * and HUBSPOT_APP_URL pointed at it (its own server, so the journeys' shared one stays unconfigured).
 */
describe('integrations', () => {
  const hubspot = new HubSpotStandIn();
  let server: ProductServer;
  let account: Account;
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
});
