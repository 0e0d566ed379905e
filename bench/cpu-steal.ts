import { readFileSync } from 'node:fs';

/**
 * The share of CPU time the hypervisor gave to other guests (Linux's `steal` in /proc/stat) since
 * the meter was made: on a shared virtual machine decodes run slower by about that much, and a
 * latency or speed figure taken while it was high says more about the host than about the code
 * (on the 2-core development VM it went from 1 % to 14-38 % between two runs of bench:live, and a
 * beam decode from 1.1 to 3.3 s). "steal ?" where /proc/stat does not exist.
 */
export function stealMeter(): () => string {
  const start = cpuTimes();
  return () => {
    const end = cpuTimes();
    if (!start || !end) return 'steal ?';
    const total = end.total - start.total;
    return `steal ${total > 0 ? (((end.steal - start.steal) / total) * 100).toFixed(0) : '0'}%`;
  };
}

function cpuTimes(): { steal: number; total: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is in user)
  const fields = stat.split('\n', 1)[0]?.trim().split(/\s+/).slice(1, 9).map(Number) ?? [];
  if (fields.length < 8 || fields.some((value) => !Number.isFinite(value))) return undefined;
  return { steal: fields[7] ?? 0, total: fields.reduce((sum, value) => sum + value, 0) };
}
