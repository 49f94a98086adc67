// The SDK's stdio transport, observed: the SDK does not report how its child process ended, and a user
// whose server fails at start needs the exit code beside the last stderr lines (failures.ts). The
// child is reached once, right after it spawned, through the transport's own (untyped) field.
import type { ChildProcess } from 'node:child_process';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export class ObservedStdioTransport extends StdioClientTransport {
  exit: ProcessExit | undefined;
  private exitListeners: ((exit: ProcessExit) => void)[] = [];

  override async start(): Promise<void> {
    await super.start();
    const child = (this as unknown as { _process?: ChildProcess })._process;
    if (!child) return;
    if (child.exitCode !== null || child.signalCode !== null) this.exited({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => this.exited({ code, signal }));
  }

  onExit(listener: (exit: ProcessExit) => void): void {
    if (this.exit) listener(this.exit);
    else this.exitListeners.push(listener);
  }

  private exited(exit: ProcessExit): void {
    this.exit = exit;
    for (const listener of this.exitListeners.splice(0)) listener(exit);
  }
}
