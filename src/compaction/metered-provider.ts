// What the summarizer calls of one compaction cost: a Provider wrapper that adds up the usage of every
// finished reply it passes through, so the compaction entry can record the real figure (issue 17:
// markers tell the truth) without every summarizer step reporting its own usage.
import type { Provider, StreamEvent, StreamRequest } from '../llm/types';

/** `details.cost` of a compaction entry: summarizer calls, their tokens and USD. */
export interface SummarizerCost {
  calls: number;
  input: number;
  output: number;
  total: number;
}

export class MeteredProvider implements Provider {
  /** `cost` may be shared by several wrappers (one per candidate model) to total a whole compaction */
  constructor(
    private readonly inner: Provider,
    readonly cost: SummarizerCost = { calls: 0, input: 0, output: 0, total: 0 },
  ) {}

  async *stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    for await (const event of this.inner.stream(request)) {
      if (event.type === 'done') this.add(event.message.usage);
      yield event;
    }
  }

  private add(usage: { input?: number; output?: number; cost?: { total?: number } } | undefined): void {
    this.cost.calls++;
    this.cost.input += usage?.input ?? 0;
    this.cost.output += usage?.output ?? 0;
    this.cost.total += usage?.cost?.total ?? 0;
  }
}
