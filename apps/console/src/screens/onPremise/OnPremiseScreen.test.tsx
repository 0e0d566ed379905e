import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InstallationLicence, Licence, UsageReport } from '@verbatim/contracts';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/renderRoutes';
import { sampleConsoleConfig } from '../../test/fixtures';
import { stubApi } from '../../test/stubApi';

const licencesPath = '/api/v1/limiter/on-premise/licenses';

const licence: Licence = {
  id: 'lic_1',
  name: 'Hospital',
  keyPrefix: 'vbl1_k3y5t4g0',
  status: 'active',
  created: '2026-03-04T10:20:30.000Z',
  expiry: '2027-03-04T23:59:59.999Z',
  uses: 3725,
  maxUses: 360_000,
  graceDays: 7,
  lastReportAt: null,
};

const report: UsageReport = {
  format: 'verbatim-usage-report/1',
  licenceId: 'lic_1',
  keyPayload: 'eyJ0YWciOiJrM3k1dDRnMCJ9',
  createdAt: '2026-05-01T10:00:00.000Z',
  batches: [
    {
      batchId: 'batch-0001',
      seconds: 120,
      periodStart: '2026-04-01T10:00:00.000Z',
      periodEnd: '2026-04-30T10:00:00.000Z',
    },
  ],
  signature: 'a'.repeat(64),
};

async function openScreen() {
  const view = await renderRoutes(routes, { initialEntries: ['/on-premise'], signedIn: true });
  await screen.findByRole('heading', { level: 1, name: 'On-premise Speech to Text models' });
  return view;
}

describe('on-premise screen', () => {
  it('lists the licences with prefix, status, dates and durations in hours and minutes', async () => {
    stubApi({ [licencesPath]: { body: [licence] } });
    await openScreen();
    expect(await screen.findByRole('link', { name: /Discover the on-premise offer/ })).toHaveAttribute(
      'href',
      sampleConsoleConfig.onPremise.offerUrl,
    );
    const row = within(await screen.findByTestId('licence-lic_1'));
    expect(row.getByText('Hospital')).toBeInTheDocument();
    expect(row.getByText('vbl1_k3y5t4g0…')).toBeInTheDocument();
    expect(row.getByText('Active')).toBeInTheDocument();
    // 3725 s × 1000 ms = 1 h 02 min; 360000 s = 100 h 00 min.
    expect(row.getByText('1 h 02 min')).toBeInTheDocument();
    expect(row.getByText('100 h 00 min')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'On-premise' })).toHaveAttribute('href', '/on-premise');
  });

  it('offers the sales contact when there is no licence', async () => {
    stubApi({ [licencesPath]: { body: [] } });
    await openScreen();
    expect(await screen.findByText('No on-premise licence yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: sampleConsoleConfig.onPremise.salesEmail })).toHaveAttribute(
      'href',
      `mailto:${sampleConsoleConfig.onPremise.salesEmail}`,
    );
  });

  it('uploads a usage report and says what was counted', async () => {
    const fetchMock = stubApi({
      [licencesPath]: { body: [licence] },
      [`POST ${licencesPath}/usage-reports`]: {
        body: { licence, batchesCounted: 1, batchesSkipped: 0, secondsCounted: 120 },
      },
    });
    await openScreen();
    await screen.findByTestId('licence-lic_1');
    const file = new File([JSON.stringify(report)], 'usage.json', { type: 'application/json' });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await userEvent.upload(input, file);
    expect(
      await screen.findByText('1 new batches counted (0 h 02 min); 0 already counted.'),
    ).toBeInTheDocument();
    const posted = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    const body = posted?.[1]?.body;
    expect(JSON.parse(typeof body === 'string' ? body : '')).toEqual(report);
  });

  it('shows the on-premise edition its own licence and problem, and no billing', async () => {
    const own: InstallationLicence = {
      licenceId: 'lic_1',
      name: 'Hospital',
      keyPrefix: 'vbl1_k3y5t4g0',
      status: 'exhausted',
      expiry: licence.expiry,
      used: 360_000,
      maxUses: 360_000,
      remaining: 0,
      unreportedSeconds: 60,
      lastReportAt: null,
      problem: 'LICENSE_EXHAUSTED',
      problemMessage: 'The licence "Hospital" has used all its 100 hours: ask your provider to extend it.',
    };
    stubApi({
      '/api/v1/console-config': { body: { ...sampleConsoleConfig, edition: 'on_premise' } },
      '/api/v1/licensing/installation': { body: own },
    });
    await openScreen();
    expect(await screen.findAllByText(own.problemMessage ?? '')).not.toHaveLength(0);
    expect(await screen.findByText('Exhausted')).toBeInTheDocument();
    expect(screen.getAllByText('100 h 00 min')).toHaveLength(2);
    expect(screen.queryByRole('link', { name: 'Billing' })).not.toBeInTheDocument();
  });
});
