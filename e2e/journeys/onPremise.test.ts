import { spawn } from 'node:child_process';
import { describe, expect, inject } from 'vitest';
import { createVerifiedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { repoRoot, serverCliPath } from '../support/paths.js';
import { signIn } from '../support/signIn.js';

/** The operator's `verbatim licenses …`, beside the running journeys' server (through it, on its data folder). */
function licensesCommand(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverCliPath, 'licenses', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: inject('dataDir'), LOG_LEVEL: 'warn' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('On-premise', () => {
  journey(
    'a licence issued by the operator appears on the On-premise screen of its owner',
    async ({ page }) => {
      const account = await createVerifiedAccount();
      await signIn(page, account, '/on-premise');
      await page.getByRole('heading', { level: 1, name: 'On-premise Speech to Text models' }).waitFor();
      await page.getByText('No on-premise licence yet').waitFor();
      const sales = page.getByRole('link', { name: /@/ });
      expect(await sales.getAttribute('href')).toMatch(/^mailto:/);

      const expires = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
      const issued = await licensesCommand([
        'issue',
        '--email',
        account.email,
        '--name',
        'Radiology ward',
        '--hours',
        '12.5',
        '--expires',
        expires,
      ]);
      expect(issued.code, issued.stderr).toBe(0);
      const key = issued.stdout.trim().split('\n').at(-1) ?? '';
      expect(key).toMatch(/^vbl1_[0-9a-z]{8}\./);

      await page.reload();
      const table = page.getByRole('table');
      await table.waitFor();
      const row = await table.evaluate((element) => {
        const headers = Array.from(
          element.querySelectorAll('thead th'),
          (th) => th.textContent?.trim() ?? '',
        );
        const cells = Array.from(
          element.querySelectorAll('tbody tr:first-child td'),
          (td) => td.textContent?.trim() ?? '',
        );
        return Object.fromEntries(headers.map((header, index) => [header, cells[index] ?? '']));
      });
      expect(row).toMatchObject({
        Name: 'Radiology ward',
        'Key prefix': `${key.slice(0, 13)}…`,
        Status: 'Active',
        Used: '0 h 00 min',
        'Total available': '12 h 30 min',
      });
      expect(row.Expiry).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // The key itself is never shown again.
      expect(await page.content()).not.toContain(key);
      await page.getByRole('button', { name: 'Upload a usage report' }).waitFor();
    },
  );
});
