// A clock for timer tests (unit and extension host): nothing fires until the test advances it.
import type { Clock } from '../../../src/agent/idle-timer';

/** A manual clock: timers fire only through `advance`. */
export class ManualClock implements Clock {
  private time = Date.parse('2026-03-01T10:00:00Z');
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  get pending(): number {
    return this.timers.length;
  }

  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const timer of due) timer.callback();
  }
}
