// Who holds a session lock, and whether that holder is provably gone (docs/reliability.md, concurrent
// writers). The lock file records `pid host created start token`: on this host a lock is stale only when
// its pid is dead or now belongs to another process (Linux: a different start time in /proc/<pid>/stat);
// a lock from another host, or one whose owner cannot be identified, is stale only when the holder
// stopped refreshing it (its heartbeat, the file's mtime, is older than the staleness threshold).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';

export interface LockOwner {
  pid: number;
  host: string;
  /** the process start time (Linux clock ticks since boot) when it could be read */
  start?: string;
  /** random per acquisition: tells our lock apart from a later one by the same process */
  token?: string;
}

export interface StalenessRules {
  /** a heartbeat older than this means the holder is gone (other host, or owner not identifiable) */
  staleMs: number;
  /** a live writer fills its lock within microseconds; an empty lock this old was left by a crash */
  emptyStaleMs: number;
  /** a live pid without a start time to compare is trusted this long without a heartbeat (pid reuse) */
  unverifiedPidMs: number;
}

export type LockVerdict = { stale: true; why: string } | { stale: false; why: string };

let ownStart: { value: string | undefined } | undefined;

export function ownerForThisProcess(): LockOwner {
  ownStart ??= { value: startTimeFromStat(readProcStatSync(process.pid)) }; // never changes: read once
  const start = ownStart.value;
  return { pid: process.pid, host: hostname(), ...(start ? { start } : {}), token: randomBytes(8).toString('hex') };
}

/** One line; the first two fields are what earlier Arbor versions read (`pid host`). */
export function formatOwner(owner: LockOwner): string {
  return `${owner.pid} ${owner.host} ${Date.now()} ${owner.start ?? '-'} ${owner.token ?? '-'}\n`;
}

export function parseOwner(content: string): LockOwner | undefined {
  const [pidText, host, , start, token] = content.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !host) return undefined;
  const owner: LockOwner = { pid, host };
  if (start && start !== '-') owner.start = start;
  if (token && token !== '-') owner.token = token;
  return owner;
}

/** Decides from the lock's content and its age (time since its last heartbeat). */
export async function judgeLock(content: string, ageMs: number, rules: StalenessRules): Promise<LockVerdict> {
  if (content.trim() === '') {
    return ageMs > rules.emptyStaleMs ? { stale: true, why: 'empty lock left by a crash' } : { stale: false, why: 'a writer is creating it' };
  }
  const owner = parseOwner(content);
  if (!owner || owner.host !== hostname()) return judgeByHeartbeat(owner, ageMs, rules.staleMs);
  if (!isAlive(owner.pid)) return { stale: true, why: `process ${owner.pid} is gone` };
  const current = owner.start === undefined ? undefined : await processStartTime(owner.pid);
  if (owner.start !== undefined && current !== undefined) {
    return current === owner.start
      ? { stale: false, why: `held by running process ${owner.pid}` }
      : { stale: true, why: `process ${owner.pid} ended and its pid was reused` };
  }
  return judgeByHeartbeat(owner, ageMs, rules.unverifiedPidMs);
}

function judgeByHeartbeat(owner: LockOwner | undefined, ageMs: number, limitMs: number): LockVerdict {
  const who = owner ? `process ${owner.pid} on ${owner.host}` : 'an unknown writer';
  const seconds = Math.round(ageMs / 1000);
  return ageMs > limitMs
    ? { stale: true, why: `${who} stopped refreshing it ${seconds} s ago` }
    : { stale: false, why: `held by ${who} (refreshed ${seconds} s ago)` };
}

/** Field 22 of /proc/<pid>/stat (start time), or undefined where there is no /proc. */
export async function processStartTime(pid: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  return startTimeFromStat(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined));
}

function readProcStatSync(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
}

function startTimeFromStat(stat: string | undefined): string | undefined {
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may contain spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[22 - 3];
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
