// One way for the VS Code adapters to own what they must release: a class registers its subscriptions,
// emitters and watchers as it makes them, and its dispose() releases them all, newest first, once. A thing
// registered after dispose() is released at once, so a late subscription cannot leak. No `vscode` import:
// anything with a dispose() fits, and the unit tests run it without VS Code.

export interface DisposableLike {
  dispose(): unknown;
}

export abstract class Disposable implements DisposableLike {
  private readonly owned: DisposableLike[] = [];
  private disposed = false;

  /** Takes `item` to be disposed with this object; returns it, so a field can be registered where it is made. */
  protected register<T extends DisposableLike>(item: T): T {
    if (this.disposed) item.dispose();
    else this.owned.push(item);
    return item;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.owned.splice(0).reverse()) item.dispose();
  }
}
