// Asks an OpenAI-compatible local server how large the loaded model's context really is. Each server
// tells it differently: vLLM `/v1/models` max_model_len, LM Studio `/api/v0/models` or `/v1/models`
// context_length / max_context_length / loaded_context_length, llama.cpp `/props`
// default_generation_settings.n_ctx, Ollama `/api/show` model_info["<arch>.context_length"] (the
// model's maximum; the effective num_ctx may be smaller, which Ollama reveals only by truncating).
// Best effort: every probe has a short timeout, and undefined means "the server did not say".

export interface DetectOptions {
  modelId?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface DetectedContextWindow {
  contextWindow: number;
  source: 'vllm' | 'lmstudio' | 'llamacpp' | 'ollama' | 'models';
}

function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

/** `http://host:port/v1/` → `http://host:port` (servers put /props, /api/* at the root). */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

async function getJson(fetchImpl: typeof fetch, url: string, timeoutMs: number, init?: RequestInit): Promise<unknown> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    return await response.json();
  } catch {
    return undefined;
  }
}

type Entry = Record<string, unknown>;

function pickEntry(list: unknown, modelId: string | undefined): Entry | undefined {
  const data = (list as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length === 0) return undefined;
  const entries = data.filter((e): e is Entry => !!e && typeof e === 'object');
  return (modelId ? entries.find((e) => e.id === modelId) : undefined) ?? (entries.length === 1 ? entries[0] : modelId ? undefined : entries[0]);
}

function fromModelEntry(entry: Entry | undefined): DetectedContextWindow | undefined {
  if (!entry) return undefined;
  const vllm = positiveInt(entry.max_model_len);
  if (vllm) return { contextWindow: vllm, source: 'vllm' };
  const lm = positiveInt(entry.loaded_context_length) ?? positiveInt(entry.context_length) ?? positiveInt(entry.max_context_length);
  if (lm) return { contextWindow: lm, source: 'lmstudio' };
  const meta = entry.meta as Entry | undefined; // llama.cpp /v1/models: meta.n_ctx_train
  const other = positiveInt(entry.context_window) ?? positiveInt(meta?.n_ctx);
  if (other) return { contextWindow: other, source: 'models' };
  return undefined;
}

function fromOllamaShow(body: unknown): number | undefined {
  const info = (body as { model_info?: Entry })?.model_info;
  if (!info) return undefined;
  for (const [key, value] of Object.entries(info)) if (key.endsWith('.context_length')) return positiveInt(value);
  return undefined;
}

export async function detectContextWindow(baseUrl: string, options: DetectOptions = {}): Promise<DetectedContextWindow | undefined> {
  const fetchImpl = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3000;
  const root = serverRoot(baseUrl);
  const v1 = `${root}/v1`;

  const models = await getJson(fetchImpl, `${v1}/models`, timeoutMs);
  const fromV1 = fromModelEntry(pickEntry(models, options.modelId));
  if (fromV1) return fromV1;

  const props = (await getJson(fetchImpl, `${root}/props`, timeoutMs)) as Entry | undefined;
  const nCtx = positiveInt((props?.default_generation_settings as Entry | undefined)?.n_ctx) ?? positiveInt(props?.n_ctx);
  if (nCtx) return { contextWindow: nCtx, source: 'llamacpp' };

  const lmModels = await getJson(fetchImpl, `${root}/api/v0/models`, timeoutMs);
  const fromLm = fromModelEntry(pickEntry(lmModels, options.modelId));
  if (fromLm) return { ...fromLm, source: 'lmstudio' };

  if (options.modelId) {
    const show = await getJson(fetchImpl, `${root}/api/show`, timeoutMs, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: options.modelId }),
    });
    const ctx = fromOllamaShow(show);
    if (ctx) return { contextWindow: ctx, source: 'ollama' };
  }
  return undefined;
}
