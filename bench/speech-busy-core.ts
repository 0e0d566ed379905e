// Another program keeping one core busy, as on a shared machine (`yes > /dev/null`): bench:speech
// --busy-core measures how the speech engine and its peer slow down beside it. The loop is the
// benchmark's own child and always ends with it, on success, failure or Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';

export interface BusyCore {
  stop(): void;
}

export function startBusyCore(): BusyCore {
  // stdout ignored: Node opens /dev/null for it, so `yes` writes there as fast as a core allows.
  const child: ChildProcess = spawn('yes', [], { stdio: 'ignore' });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const onSignal = () => {
    stop();
    process.exit(130);
  };
  process.once('exit', stop);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    stop() {
      stop();
      process.off('exit', stop);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
