/**
 * A process that tries to take a data folder when told to (a line on stdin), for the tests of
 * simultaneous takeovers: prints READY, then WON or LOST, and holds a won lock until stdin closes.
 */
import { once } from 'node:events';
import { lockDataFolder } from '../platform/db-owner/data-folder-lock.js';

const folder = process.argv[2];
if (!folder) throw new Error('usage: lock-contender <folder>');
process.stdin.setEncoding('utf8');
console.log('READY');
await once(process.stdin, 'data');
try {
  const lock = await lockDataFolder(folder, {
    onCompromised: () => {
      console.log('COMPROMISED');
      process.exit(3);
    },
  });
  console.log('WON');
  await once(process.stdin, 'end');
  await lock.release();
} catch (error) {
  console.log(`LOST ${(error as Error).message}`);
}
