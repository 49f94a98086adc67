// Chat webview bootstrap: mounts the UI, connects to the host through the validated protocol, and starts
// the ready handshake. Rendering lives in render/, protocol handling in host-channel.ts.
import './zod-config'; // must stay the first import
import { connectToHost, sendReady } from './host-channel';
import { mountApp } from './render/app';

function bootstrap(): void {
  const container = document.getElementById('app');
  if (!container) throw new Error('Arbor chat: #app element missing');
  const api = acquireVsCodeApi();
  let channelRef: ReturnType<typeof connectToHost> | undefined;
  const app = mountApp(container, { showSessionTree: () => channelRef?.post({ type: 'showSessionTree' }) });
  const channel = connectToHost(
    api,
    (message) => {
      switch (message.type) {
        case 'state':
          app.showState(message.state);
          return;
      }
    },
    (count) => app.setDroppedCount(count),
  );
  channelRef = channel;
  // A blocked resource means the CSP and the page disagree; make that visible in the output channel.
  document.addEventListener('securitypolicyviolation', (event) => {
    container.dataset.cspViolations = String(Number(container.dataset.cspViolations ?? '0') + 1);
    channel.report('error', `CSP blocked ${event.blockedURI || 'inline content'} (${event.violatedDirective})`);
  });
  sendReady(channel);
}

bootstrap();
