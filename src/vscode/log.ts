// The extension's output channel ("Arbor" in the Output panel). One instance, created at activation.
import * as vscode from 'vscode';

export type Logger = Pick<vscode.LogOutputChannel, 'trace' | 'debug' | 'info' | 'warn' | 'error'>;

export function createLogger(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const channel = vscode.window.createOutputChannel('Arbor', { log: true });
  context.subscriptions.push(channel);
  return channel;
}
