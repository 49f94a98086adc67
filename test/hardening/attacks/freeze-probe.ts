// Child process for tool-freeze.test.ts: runs hostile tool calls one after another and prints, per call,
// how long it took and the longest gap the event loop had. A call that freezes the main thread cannot
// time itself, so the parent runs the probes in this separate process and kills it after a watchdog
// delay: a hang fails the test, it never stalls CI.
//   node --import tsx freeze-probe.ts '<json: { ws, probes: [{ tool, args, engine: "rg"|"none", abortAfterMs? }] }>'
import { createTools } from '../../../src/agent/tools/index';
import { runTool } from '../../../src/agent/tools/types';

interface Probe {
  tool: string;
  args: unknown;
  engine: 'rg' | 'none';
  abortAfterMs?: number;
}

async function runProbe(ws: string, probe: Probe): Promise<Record<string, unknown>> {
  const tool = createTools({ ripgrep: probe.engine === 'rg' ? undefined : false }).find((t) => t.name === probe.tool);
  if (!tool) throw new Error(`no tool ${probe.tool}`);
  const controller = new AbortController();
  let maxGap = 0;
  let last = Date.now();
  const ticker = setInterval(() => {
    const now = Date.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 10);
  const started = Date.now();
  let abortedAt = 0;
  if (probe.abortAfterMs !== undefined) {
    setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, probe.abortAfterMs);
  }
  const output = await runTool(tool, probe.args, { workspace: { folders: [{ name: 'ws', path: ws }] }, signal: controller.signal });
  const ended = Date.now();
  clearInterval(ticker);
  maxGap = Math.max(maxGap, ended - last);
  const text = output.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ms: ended - started, stopMs: abortedAt ? ended - abortedAt : -1, maxGap, isError: output.isError, text: text.slice(0, 2000) };
}

async function main(): Promise<void> {
  const { ws, probes } = JSON.parse(process.argv[2]) as { ws: string; probes: Probe[] };
  // Load everything once before the first probe, so module loading does not count as a stall.
  createTools();
  for (const probe of probes) process.stdout.write(`${JSON.stringify(await runProbe(ws, probe))}\n`);
  // A libuv thread stuck on a FIFO would keep the process alive; the figures are out, so leave.
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ crash: String((error as Error)?.stack ?? error) })}\n`);
  process.exit(1);
});
