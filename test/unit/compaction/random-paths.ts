// Seeded random session paths for property tests: turns of user/bash/custom/branch-summary starts,
// assistant steps with tool calls and their results, and metadata sprinkled in between.
import { PathBuilder, chars } from './fixtures';

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

export function randomPath(seed: number, turns: number, b = new PathBuilder()): PathBuilder {
  const r = rng(seed);
  const size = () => 1 + Math.floor(r() ** 3 * 3000);
  const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts'];
  for (let t = 0; t < turns; t++) {
    if (r() < 0.15) b.modelChange();
    const start = r();
    if (start < 0.7) b.user(chars(size()));
    else if (start < 0.8) b.bash('ls', chars(size()));
    else if (start < 0.9) b.customMessage(chars(size()));
    else b.branchSummary(chars(size()));
    if (r() < 0.1) b.label(b.entries[b.entries.length - 1]!.id, 'L');
    const steps = Math.floor(r() * 4);
    for (let s = 0; s < steps; s++) {
      const calls = Math.floor(r() * 3);
      const toolCalls = Array.from({ length: calls }, () =>
        b.toolCall(r() < 0.5 ? 'read' : r() < 0.5 ? 'edit' : 'bash', { path: files[Math.floor(r() * files.length)]! }),
      );
      b.assistant(chars(size()), toolCalls);
      for (let c = 0; c < calls; c++) b.toolResult(chars(size()), toolCalls[c]!.name);
    }
  }
  return b;
}
