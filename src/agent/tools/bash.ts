// `bash`: runs a command in the first workspace folder. The child gets its own process group so that
// a timeout or an abort kills everything it started (kill(-pid)), not just the shell. Output is kept
// as a bounded tail and streamed through onUpdate.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { resolveInWorkspace } from './paths';
import { TailBuffer, formatBytes } from './text';
import { DEFAULT_TOOL_LIMITS, ToolError, defineTool, limitsOf, type AgentTool, type ToolOutput } from './types';

export const bashArgs = z.object({
  command: z.string().min(1, 'command must not be empty').describe('Shell command to run'),
  timeout: z.number().positive().optional().describe('Timeout in seconds'),
});
export type BashArgs = z.infer<typeof bashArgs>;

export interface BashDetails {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
}

const KILL_GRACE_MS = 1500;
/** After the shell exits, how long to wait for its pipes to close (a background child may hold them). */
const PIPE_DRAIN_MS = 1000;
const UPDATE_INTERVAL_MS = 100;

export function shellCommand(): { file: string; args: (command: string) => string[] } {
  if (process.platform === 'win32') return { file: 'cmd.exe', args: (c) => ['/d', '/s', '/c', c] };
  const file = existsSync('/bin/bash') ? '/bin/bash' : 'sh';
  return { file, args: (c) => ['-c', c] };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function formatResult(body: string, tail: ReturnType<TailBuffer['tail']>, totals: { lines: number; bytes: number }, footer: string): string {
  const marker = tail.truncated
    ? `[Output truncated: showing the last ${tail.shownLines} lines (${formatBytes(tail.shownBytes)}) of ${totals.lines} lines (${formatBytes(totals.bytes)}). Redirect the output to a file and read it, or filter it, to see more.]\n`
    : '';
  const text = body.length > 0 ? body : '(no output)';
  return `${marker}${text}\n\n${footer}`;
}

export function createBashTool(): AgentTool<BashArgs> {
  const shell = shellCommand();
  return defineTool<BashArgs>({
    name: 'bash',
    description: renderPrompt('system/tools/bash', {
      shell: shell.file,
      defaultTimeout: String(DEFAULT_TOOL_LIMITS.bashDefaultTimeoutSec),
      maxTimeout: String(DEFAULT_TOOL_LIMITS.bashMaxTimeoutSec),
      maxLines: String(DEFAULT_TOOL_LIMITS.outputMaxLines),
      maxBytes: formatBytes(DEFAULT_TOOL_LIMITS.outputMaxBytes),
    }),
    argsSchema: bashArgs,
    effect: { kind: 'runs', command: (args) => (typeof args.command === 'string' ? args.command : undefined) },
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      if (args.command.includes('\0')) throw new ToolError('The command contains a NUL byte.');
      const cwd = (await resolveInWorkspace(ctx.workspace, '.')).absolute;
      const requested = args.timeout ?? limits.bashDefaultTimeoutSec;
      const timeoutSec = Math.min(requested, limits.bashMaxTimeoutSec);
      return runCommand(shell, args.command, cwd, timeoutSec, requested > timeoutSec, limits, ctx.signal, ctx.onUpdate);
    },
  });
}

function runCommand(
  shell: ReturnType<typeof shellCommand>,
  command: string,
  cwd: string,
  timeoutSec: number,
  clamped: boolean,
  limits: ReturnType<typeof limitsOf>,
  signal: AbortSignal,
  onUpdate?: (text: string) => void,
): Promise<ToolOutput> {
  return new Promise<ToolOutput>((resolve) => {
    const output = new TailBuffer(limits.outputMaxLines, limits.outputMaxBytes);
    const child = spawn(shell.file, shell.args(command), {
      cwd,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', TERM: process.env.TERM ?? 'dumb' },
      windowsHide: true,
    });
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let updateTimer: NodeJS.Timeout | undefined;
    let spawnError: Error | undefined;

    const decoders = { out: new StringDecoder('utf8'), err: new StringDecoder('utf8') };
    // Throttled with a leading edge: the first output shows at once, then at most every interval.
    let lastUpdate = 0;
    const sendUpdate = () => {
      updateTimer = undefined;
      lastUpdate = Date.now();
      if (!settled && onUpdate) onUpdate(output.tail().text);
    };
    const scheduleUpdate = () => {
      if (!onUpdate || updateTimer) return;
      const wait = lastUpdate + UPDATE_INTERVAL_MS - Date.now();
      if (wait <= 0) sendUpdate();
      else updateTimer = setTimeout(sendUpdate, wait);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      output.append(decoders.out.write(chunk));
      scheduleUpdate();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output.append(decoders.err.write(chunk));
      scheduleUpdate();
    });

    const kill = () => {
      if (child.pid === undefined) return;
      killGroup(child.pid, 'SIGTERM');
      killTimer ??= setTimeout(() => child.pid !== undefined && killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutSec * 1000);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(drainTimer);
      clearTimeout(updateTimer);
      signal.removeEventListener('abort', onAbort);
      // The group is killed after a timeout/abort; make sure no straggler outlives the SIGTERM grace.
      if ((timedOut || aborted) && child.pid !== undefined) {
        const pid = child.pid;
        clearTimeout(killTimer);
        setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS).unref();
      } else clearTimeout(killTimer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      output.append(decoders.out.end());
      output.append(decoders.err.end());
      const tail = output.tail();
      const totals = { lines: output.totalLines, bytes: output.totalBytes };
      const details: BashDetails = {
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        aborted,
        truncated: tail.truncated,
        totalLines: totals.lines,
        totalBytes: totals.bytes,
      };
      let footer: string;
      let isError: boolean;
      if (spawnError) {
        footer = `[Could not start ${shell.file}: ${spawnError.message}]`;
        isError = true;
      } else if (timedOut) {
        footer = `[Command timed out after ${timeoutSec} s${clamped ? ` (the maximum allowed)` : ''}; its process group was killed.]`;
        isError = true;
      } else if (aborted) {
        footer = '[Command aborted by the user; its process group was killed.]';
        isError = true;
      } else if (exit?.code === 0) {
        footer = '[exit code: 0]';
        isError = false;
      } else {
        footer = exit?.code != null ? `[exit code: ${exit.code}]` : `[terminated by signal ${exit?.signal ?? 'unknown'}]`;
        isError = true;
      }
      resolve({ content: [{ type: 'text', text: formatResult(tail.text, tail, totals, footer) }], details, isError });
    };

    child.on('error', (error) => {
      spawnError = error;
      finish();
    });
    child.on('exit', (code, sig) => {
      exit = { code, signal: sig };
      drainTimer = setTimeout(finish, PIPE_DRAIN_MS);
    });
    child.on('close', (code, sig) => {
      exit ??= { code, signal: sig };
      finish();
    });
  });
}
