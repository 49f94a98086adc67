// The offline demo model: the OpenAI-compatible provider pointed at a scripted in-process endpoint (a
// `fetch`, no socket) that is made on first use and dropped by disposeDemoModel() (on deactivate).
import { errorText } from '../../core/error-text';
import type { Provider, StreamEvent, StreamRequest } from '../types';
import type { ProviderOptions } from '../provider-options';
import { OpenAICompletionsProvider } from '../openai-completions';
import { failedMessage } from '../attempt';
import { DEMO_MODEL } from '../providers/demo';
import { startDemoServer, type DemoServer, type DemoServerOptions } from './server';

export { DEMO_MODEL } from '../providers/demo';
export { demoReply, demoSummary, DEMO_LABEL } from './script';
export { startDemoServer } from './server';

let server: Promise<DemoServer> | undefined;
let serverOptions: DemoServerOptions = {};

/** Optional: tune the demo server before first use (tests use chunkDelayMs: 0). */
export function configureDemoServer(options: DemoServerOptions): void {
  serverOptions = options;
}

function ensureServer(): Promise<DemoServer> {
  server ??= startDemoServer(serverOptions).catch((err) => {
    server = undefined;
    throw err;
  });
  return server;
}

/** Stops the demo server if it was started; safe to call more than once. */
export async function disposeDemoModel(): Promise<void> {
  const running = server;
  server = undefined;
  if (running) await (await running).close().catch(() => undefined);
}

class DemoProvider implements Provider {
  constructor(private readonly options?: ProviderOptions) {}

  async *stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    let demo: DemoServer;
    try {
      demo = await ensureServer();
    } catch (err) {
      yield { type: 'start' };
      yield {
        type: 'done',
        message: failedMessage(DEMO_MODEL, 'error', `The offline demo model could not start: ${errorText(err)}`),
      };
      return;
    }
    const baseUrl = demo.baseUrl;
    const model = { ...DEMO_MODEL, ...request.model, api: 'openai-compatible' as const, baseUrl };
    const inner = new OpenAICompletionsProvider(model, { getKey: async () => undefined }, { ...this.options, baseUrl, fetch: demo.fetch });
    for await (const event of inner.stream({ ...request, model })) {
      if (event.type === 'done') yield { type: 'done', message: { ...event.message, api: 'demo' } };
      else yield event;
    }
  }
}

export function getDemoProvider(options?: ProviderOptions): Provider {
  return new DemoProvider(options);
}
