// What the summarizer calls of one compaction cost: a Provider wrapper that adds up the usage of every
// finished reply it passes through, so the compaction entry can record the real figure (issue 17:
// markers tell the truth) without every summarizer step reporting its own usage.
import type { Usage } from '../core/messages';
import { addUsage } from '../core/usage';
import type { Provider, StreamEvent, StreamRequest } from '../llm/types';

/** `details.cost` of a compaction entry: summarizer calls, their tokens and USD. */
export interface SummarizerCost {
  calls: number;
  input: number;
  output: number;
  total: number;
}

/** What a compaction's summarizer calls used: the marker's cost, and the entry's `usage` (pi 1.5 field). */
export interface SummarizerMeter {
  cost: SummarizerCost;
  usage?: Usage;
}

export function newMeter(): SummarizerMeter {
  return { cost: { calls: 0, input: 0, output: 0, total: 0 } };
}

export class MeteredProvider implements Provider {
  /** `meter` may be shared by several wrappers (one per candidate model) to total a whole compaction */
  constructor(
    private readonly inner: Provider,
    readonly meter: SummarizerMeter = newMeter(),
  ) {}

  async *stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    for await (const event of this.inner.stream(request)) {
      if (event.type === 'done') this.add(event.message.usage);
      yield event;
    }
  }

  private add(usage: Usage | undefined): void {
    const cost = this.meter.cost;
    cost.calls++;
    cost.input += usage?.input ?? 0;
    cost.output += usage?.output ?? 0;
    cost.total += usage?.cost?.total ?? 0;
    if (usage) this.meter.usage = addUsage(this.meter.usage, usage);
  }
}
