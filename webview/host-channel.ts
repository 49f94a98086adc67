// The webview's side of the protocol: typed sends, and validation of everything the host posts. An
// invalid message is logged (console + host output channel) and dropped, never acted on.
import {
  PROTOCOL_VERSION,
  describeRaw,
  parseHostMessage,
  type HostToWebviewMessage,
  type WebviewToHostMessage,
} from '../src/protocol';

export interface HostChannel {
  post(message: WebviewToHostMessage): void;
  /** Reports a problem to the extension's output channel too. */
  report(level: 'info' | 'warn' | 'error', message: string): void;
  /** Number of messages dropped as invalid so far (exposed for tests via the DOM). */
  readonly dropped: number;
}

export function connectToHost(
  api: VsCodeWebviewApi,
  onMessage: (message: HostToWebviewMessage) => void,
  onDropped: (count: number) => void,
): HostChannel {
  let dropped = 0;
  const channel: HostChannel = {
    post: (message) => api.postMessage(message),
    report: (level, message) => {
      (level === 'error' ? console.error : level === 'warn' ? console.warn : console.info)(`[arbor] ${message}`);
      api.postMessage({ type: 'log', level, message: message.slice(0, 4000) } satisfies WebviewToHostMessage);
    },
    get dropped() {
      return dropped;
    },
  };
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const started = performance.now();
    const parsed = parseHostMessage(event.data);
    // User Timing entries let the paint benchmark split validation from rendering.
    performance.measure('arbor:validate', { start: started });
    if (!parsed.ok) {
      dropped++;
      channel.report('warn', `dropped invalid message from host (${parsed.reason}): ${describeRaw(event.data)}`);
      onDropped(dropped);
      return;
    }
    onMessage(parsed.message);
  });
  return channel;
}

export function sendReady(channel: HostChannel): void {
  channel.post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
}
