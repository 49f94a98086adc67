// Runs grep's JavaScript regular expression off the extension host's main thread. JS RegExp backtracks:
// `^(a+)+$` on a 35-character line runs for minutes, and nothing on the same thread (not even Stop)
// gets a turn meanwhile. A worker thread is terminated when a file takes longer than the deadline or
// the call is aborted, so the host stays responsive and the call ends in time (docs/reliability.md).
// The worker's code is a string evaluated by Node (`eval: true`), so it works the same from the esbuild
// bundle and from the TypeScript sources under test, with no extra file to ship.
import { Worker } from 'node:worker_threads';
import { ToolError } from './types';

/** Longest a single file's search may run before the pattern is declared too slow. */
export const REGEX_FILE_DEADLINE_MS = 2000;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (job) => {
  const regex = new RegExp(job.source, job.flags);
  const lines = job.text.split('\\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < job.max; i++) if (regex.test(lines[i])) hits.push(i);
  parentPort.postMessage({ id: job.id, hits });
});
`;

interface Pending {
  id: number;
  resolve: (hits: number[]) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/** One worker per grep call; each `matchingLines` is bounded by the deadline and by the signal. */
export class RegexWorker {
  private worker: Worker | undefined;
  private pending: Pending | undefined;
  private nextId = 1;
  private readonly onAbort = () => this.fail(new ToolError('The tool call was aborted.'));

  constructor(
    private readonly source: string,
    private readonly flags: string,
    private readonly signal: AbortSignal,
    private readonly deadlineMs = REGEX_FILE_DEADLINE_MS,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** 0-based indexes of the lines (split on `\n`) that match, at most `max` of them. */
  matchingLines(text: string, max: number, display: string): Promise<number[]> {
    if (this.signal.aborted) return Promise.reject(new ToolError('The tool call was aborted.'));
    const worker = this.ensureWorker();
    return new Promise<number[]>((resolve, reject) => {
      const id = this.nextId++;
      const timer = setTimeout(() => this.fail(this.tooSlow(display)), this.deadlineMs);
      this.pending = { id, resolve, reject, timer };
      worker.postMessage({ id, source: this.source, flags: this.flags, text, max });
    });
  }

  dispose(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.stopWorker();
  }

  private tooSlow(display: string): ToolError {
    const seconds = this.deadlineMs / 1000;
    return new ToolError(
      `The search timed out: the regular expression took longer than ${seconds} s on ${display} (a pattern like (a+)+ backtracks exponentially). Simplify the pattern, or pass literal: true.`,
    );
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    worker.unref();
    worker.on('message', (reply: { id: number; hits: number[] }) => this.settle(reply));
    worker.on('error', (error) => this.fail(new ToolError(`The search failed: ${error.message}`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: { id: number; hits: number[] }): void {
    const pending = this.pending;
    if (!pending || pending.id !== reply.id) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(reply.hits);
  }

  private fail(error: ToolError): void {
    const pending = this.pending;
    this.pending = undefined;
    this.stopWorker();
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.reject(error);
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }
}
