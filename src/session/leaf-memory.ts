// pi forgets the current position on restart (the leaf becomes the last line). Arbor remembers it outside
// the file, so the format stays pi's: the VS Code adapter backs this with workspaceState.

export interface LeafMemory {
  /** undefined = nothing remembered; null = the remembered position is "before the first entry". */
  get(file: string): string | null | undefined;
  set(file: string, leafId: string | null): void | Promise<void>;
}

export class InMemoryLeafMemory implements LeafMemory {
  private readonly leaves = new Map<string, string | null>();
  get(file: string): string | null | undefined {
    return this.leaves.get(file);
  }
  set(file: string, leafId: string | null): void {
    this.leaves.set(file, leafId);
  }
}
