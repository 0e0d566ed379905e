import { readdirSync, readFileSync } from 'node:fs';

export interface ChildProcessInfo {
  pid: number;
  command: string;
  /** `Z` for a zombie: exited but not reaped by its parent. */
  state: string;
}

/**
 * The live (or zombie) direct children of a process, read from /proc (Linux): how tests check that
 * no ffmpeg outlives an iteration and none is left unreaped.
 */
export function childProcessesOf(parentPid: number = process.pid): ChildProcessInfo[] {
  const children: ChildProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid …": comm may contain spaces and parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const [state = '', ppid = ''] = stat
      .slice(close + 2)
      .split(' ')
      .slice(0, 2);
    if (Number(ppid) === parentPid) children.push({ pid: Number(entry), command, state });
  }
  return children;
}

/** Whether a process id still exists in any state, zombies included. */
export function processExists(pid: number): boolean {
  try {
    readFileSync(`/proc/${pid}/stat`);
    return true;
  } catch {
    return false;
  }
}
