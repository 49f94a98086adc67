// A small worker pool for checkpoint I/O (docs/architecture.md, "file checkpoints"): reading, writing
// and stat'ing many files one after the other leaves the file system's thread pool idle between calls;
// a few at a time keeps it busy without opening hundreds of files at once.
export const IO_WIDTH = 16;

/** Runs `work` on every item, at most `width` at a time; rejects with the first failure once all settled. */
export async function forEachLimited<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failure) throw failure.error;
}
