// `arbor.compaction.*` settings. Defaults follow omp's newest schema (docs/pi-compatibility.md "Settings"). Every key is validated
// on its own so one bad value costs only that value: it gets a clear warning and its default, and the
// rest of the user's configuration still applies.
import { z } from 'zod';

export const COMPACTION_STRATEGIES = ['context-full', 'handoff', 'off'] as const;
export type CompactionStrategy = (typeof COMPACTION_STRATEGIES)[number];

export const IDLE_TIMEOUT_MIN_SECONDS = 60;
export const IDLE_TIMEOUT_MAX_SECONDS = 3600;

const wholeTokens = z.number().int().nonnegative();
/** -1 (or any value <= 0) means "not set"; positive values override. */
const optionalOverride = z.number().finite();

export const compactionSettingsSchema = z.object({
  enabled: z.boolean(),
  strategy: z.enum(COMPACTION_STRATEGIES),
  reserveTokens: wholeTokens,
  keepRecentTokens: wholeTokens,
  autoContinue: z.boolean(),
  remoteEnabled: z.boolean(),
  remoteEndpoint: z.string(),
  thresholdPercent: optionalOverride,
  thresholdTokens: optionalOverride,
  idleEnabled: z.boolean(),
  idleThresholdTokens: wholeTokens,
  idleTimeoutSeconds: z.number().finite(),
  /** ask (compact now / later) before an automatic threshold or idle compaction; recovery never asks */
  warnBeforeAuto: z.boolean(),
  /** "provider/modelId" (or a bare model id) used for summaries; '' = candidates from the runtime */
  summarizerModel: z.string(),
  /** "provider/modelId" of a larger-window model tried before compacting (context promotion); '' = none */
  promotionModel: z.string(),
  /** write the threshold summary ahead of time, in the band below the threshold (docs/architecture.md) */
  background: z.boolean(),
});

export type CompactionSettings = z.infer<typeof compactionSettingsSchema>;

export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = Object.freeze({
  enabled: true,
  strategy: 'context-full',
  reserveTokens: 16384,
  keepRecentTokens: 20000,
  autoContinue: true,
  // omp defaults this to true (docs/pi-compatibility.md "Settings"). It only matters for OpenAI models (native /responses/compact, which
  // goes to the provider the user already talks to) or when the user sets remoteEndpoint explicitly.
  // Native compaction (openai-native.ts) adds preserveData.openaiRemoteCompaction; the local summary is
  // still generated, because Chat Completions cannot take the encrypted compaction item.
  remoteEnabled: true,
  remoteEndpoint: '',
  thresholdPercent: -1,
  thresholdTokens: -1,
  idleEnabled: false,
  idleThresholdTokens: 200000,
  idleTimeoutSeconds: 300,
  warnBeforeAuto: false,
  summarizerModel: '',
  promotionModel: '',
  background: true,
});

export interface ParsedCompactionSettings {
  settings: CompactionSettings;
  warnings: string[];
}

type Key = keyof CompactionSettings;

function describeExpected(key: Key): string {
  const shape = compactionSettingsSchema.shape[key];
  if (shape instanceof z.ZodEnum) return `one of ${COMPACTION_STRATEGIES.map((s) => `"${s}"`).join(', ')}`;
  if (shape instanceof z.ZodBoolean) return 'true or false';
  if (shape instanceof z.ZodString) return 'a string';
  if (key === 'thresholdPercent') return 'a number (-1 = off, 1–99 = percent of the context window)';
  if (key === 'thresholdTokens') return 'a number (-1 = off, otherwise tokens)';
  if (key === 'idleTimeoutSeconds') return 'a number of seconds';
  return 'a whole number of tokens, 0 or more';
}

/**
 * Validates raw settings (e.g. `workspace.getConfiguration('arbor.compaction')` copied into an
 * object). Missing keys take defaults silently; invalid ones produce one warning each.
 */
export function parseCompactionSettings(raw: unknown): ParsedCompactionSettings {
  const warnings: string[] = [];
  const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS };
  const input = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (raw !== undefined && raw !== null && typeof raw !== 'object') {
    warnings.push(`arbor.compaction must be an object; using defaults.`);
  }
  for (const key of Object.keys(DEFAULT_COMPACTION_SETTINGS) as Key[]) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    const parsed = compactionSettingsSchema.shape[key].safeParse(value);
    if (!parsed.success) {
      warnings.push(
        `arbor.compaction.${key}: ${JSON.stringify(value)} is not valid (expected ${describeExpected(key)}); ` +
          `using the default ${JSON.stringify(DEFAULT_COMPACTION_SETTINGS[key])}.`,
      );
      continue;
    }
    (settings as Record<Key, unknown>)[key] = parsed.data;
  }
  clampIdleTimeout(settings, warnings);
  checkEndpoint(settings, warnings);
  return { settings, warnings };
}

function clampIdleTimeout(settings: CompactionSettings, warnings: string[]): void {
  const seconds = settings.idleTimeoutSeconds;
  const clamped = Math.min(IDLE_TIMEOUT_MAX_SECONDS, Math.max(IDLE_TIMEOUT_MIN_SECONDS, seconds));
  if (clamped !== seconds) {
    warnings.push(
      `arbor.compaction.idleTimeoutSeconds: ${seconds} is outside ${IDLE_TIMEOUT_MIN_SECONDS}–${IDLE_TIMEOUT_MAX_SECONDS}; using ${clamped}.`,
    );
    settings.idleTimeoutSeconds = clamped;
  }
}

/** An endpoint that can never be used is reported at load time rather than at the first compaction. */
function checkEndpoint(settings: CompactionSettings, warnings: string[]): void {
  const endpoint = settings.remoteEndpoint.trim();
  settings.remoteEndpoint = endpoint;
  if (endpoint === '') return;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('protocol');
  } catch {
    warnings.push(`arbor.compaction.remoteEndpoint: ${JSON.stringify(endpoint)} is not an http(s) URL; remote summarization is off.`);
    settings.remoteEndpoint = '';
  }
}
