// A windowed list with measured heights: only the items near the viewport exist in the DOM. Heights start
// as estimates, are replaced by measurements as items mount (and when they resize), and are remembered by
// key across snapshots. While the user is at the bottom the list follows new content; otherwise the first
// visible item stays put when heights above it change, and when items are put in front of it (earlier
// pages of the conversation). The list anchors itself, so the browser's own scroll anchoring is off.

export interface VirtualListOptions<T> {
  scroller: HTMLElement;
  /** where the rows go (inside the scroller) */
  container: HTMLElement;
  key(item: T): string;
  estimate(item: T): number;
  render(item: T): HTMLElement;
  /** px rendered above and below the viewport */
  overscan?: number;
}

export class VirtualList<T> {
  private items: T[] = [];
  private heights: number[] = [];
  private readonly known = new Map<string, number>();
  private readonly mounted = new Map<string, HTMLElement>();
  private readonly top = document.createElement('div');
  private readonly bottom = document.createElement('div');
  private readonly rows = document.createElement('div');
  private readonly observer: ResizeObserver;
  private frame = 0;
  atBottom = true;

  constructor(private readonly options: VirtualListOptions<T>) {
    this.top.className = 'vl-spacer';
    this.bottom.className = 'vl-spacer';
    this.rows.className = 'vl-rows';
    options.container.append(this.top, this.rows, this.bottom);
    // Browser scroll anchoring would correct the same height changes a second time.
    options.scroller.style.overflowAnchor = 'none';
    options.scroller.addEventListener('scroll', () => {
      // a scroller without a size (being hidden) says nothing about where the user is
      if (options.scroller.clientHeight > 0) this.updateAtBottom();
      this.schedule();
    }, { passive: true });
    this.observer = new ResizeObserver(() => this.schedule());
    this.observer.observe(options.scroller);
  }

  get length(): number {
    return this.items.length;
  }

  /** Replaces the items. Keeps mounted nodes whose key is unchanged unless `rerender` says otherwise. */
  setItems(items: T[], rerender = false): void {
    this.items = items;
    this.heights = items.map((item) => this.known.get(this.options.key(item)) ?? this.options.estimate(item));
    if (rerender) this.unmountAll();
    this.update();
  }

  /**
   * Replaces the items so that what the user looks at stays where it is on screen: the row at the top of
   * the viewport keeps its position, e.g. when earlier items are put in front of it. `aboveChanged` runs
   * once that row is noted and may change content above the list (a loading row); that is compensated too.
   * At the bottom the list keeps following the end instead.
   */
  setItemsAnchored(items: T[], aboveChanged?: () => void): void {
    const anchor = this.atBottom ? undefined : this.viewportAnchor();
    aboveChanged?.();
    this.items = items;
    this.heights = items.map((item) => this.known.get(this.options.key(item)) ?? this.options.estimate(item));
    const index = anchor ? items.findIndex((item) => this.options.key(item) === anchor.key) : -1;
    if (!anchor || index < 0) {
      this.update();
      return;
    }
    // Keep the mounted run around the anchor where it is in the new list, so the scroll height is the new
    // one before scrollTop moves (it would be clamped to the old height) and no mounted row re-renders.
    let first = index;
    let last = index;
    while (first > 0 && this.mounted.has(this.options.key(items[first - 1]!))) first--;
    while (last < items.length - 1 && this.mounted.has(this.options.key(items[last + 1]!))) last++;
    this.mountRange(first, last);
    this.top.style.height = `${this.offsetOf(first)}px`;
    this.bottom.style.height = `${this.offsetOf(items.length) - this.offsetOf(last + 1)}px`;
    this.restoreAnchor(anchor);
    this.update();
    this.restoreAnchor(anchor);
  }

  /** Re-renders the mounted items that match (e.g. a tool card changed status). */
  refresh(match: (item: T) => boolean = () => true): void {
    for (const item of this.items) {
      const key = this.options.key(item);
      const node = this.mounted.get(key);
      if (!node || !match(item)) continue;
      const next = this.options.render(item);
      next.dataset.vlKey = key;
      node.replaceWith(next);
      this.observer.unobserve(node);
      this.observer.observe(next);
      this.mounted.set(key, next);
    }
    this.update();
  }

  scrollToBottom(): void {
    this.atBottom = true;
    this.update();
  }

  /**
   * Scrolls so the item with `key` sits near the top of the viewport; returns false when it is not in
   * the list. Heights of far items are estimates until mounted, so the position is corrected after the
   * window around the target has been measured.
   */
  reveal(key: string, margin = 24): boolean {
    return this.scrollToRow(key, -margin);
  }

  /**
   * Scrolls so the row of `key` starts `offset` px above the viewport's top edge (a saved `topAnchor()`),
   * to the pixel; returns false when it is not in the list. An offset beyond the row's measured height
   * (it got shorter, e.g. in a narrower view) is cut to its last pixel, so that row stays the top one.
   */
  scrollToAnchor(key: string, offset: number): boolean {
    if (!this.scrollToRow(key, offset)) return false;
    const node = this.mounted.get(key);
    if (!node) return true;
    const top = -Math.min(offset, Math.max(0, node.offsetHeight - 1));
    // The passes place the row by offsets summed from (partly estimated) heights; settle on the row itself.
    this.restoreAnchor({ key, top });
    this.update();
    this.restoreAnchor({ key, top });
    this.updateAtBottom();
    return true;
  }

  /** The first row reaching into the viewport and its top relative to the viewport's top; undefined when nothing is laid out. */
  topAnchor(): { key: string; top: number } | undefined {
    if (this.options.scroller.clientHeight === 0) return undefined;
    return this.viewportAnchor();
  }

  /** Scrolls so the row of `key` starts `offset` px above the viewport's top; false when it is not in the list. */
  private scrollToRow(key: string, offset: number): boolean {
    const index = this.items.findIndex((item) => this.options.key(item) === key);
    if (index < 0) return false;
    this.atBottom = false;
    for (let pass = 0; pass < 3; pass++) {
      const wanted = Math.max(0, this.offsetOf(index) + this.top.offsetTop + offset);
      if (pass > 0 && Math.abs(this.options.scroller.scrollTop - wanted) < 1) break;
      this.options.scroller.scrollTop = wanted;
      this.update();
    }
    this.updateAtBottom();
    return true;
  }

  private updateAtBottom(): void {
    const s = this.options.scroller;
    this.atBottom = s.scrollHeight - s.scrollTop - s.clientHeight < 8;
  }

  /** The mounted row of `key`, if it is in the rendered window. */
  nodeOf(key: string): HTMLElement | undefined {
    return this.mounted.get(key);
  }

  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.update();
    });
  }

  /** Mounts the window around the viewport, measures it, and fixes the scroll position. */
  update(): void {
    const { scroller, overscan = 800 } = this.options;
    const listTop = this.top.offsetTop;
    if (this.atBottom) scroller.scrollTop = scroller.scrollHeight;
    for (let pass = 0; pass < 3; pass++) {
      const viewTop = scroller.scrollTop - listTop;
      const viewBottom = viewTop + scroller.clientHeight;
      const [first, last] = this.range(viewTop - overscan, viewBottom + overscan);
      const anchor = this.firstVisible(viewTop);
      const anchorOffsetBefore = this.offsetOf(anchor);
      this.mountRange(first, last);
      const changed = this.measure(first, last);
      this.top.style.height = `${this.offsetOf(first)}px`;
      this.bottom.style.height = `${this.offsetOf(this.items.length) - this.offsetOf(last + 1)}px`;
      if (this.atBottom) scroller.scrollTop = scroller.scrollHeight;
      else if (changed) scroller.scrollTop += this.offsetOf(anchor) - anchorOffsetBefore;
      if (!changed) break;
    }
  }

  /** The first mounted row that reaches into the viewport, and its distance from the viewport's top. */
  private viewportAnchor(): { key: string; top: number } | undefined {
    const viewTop = this.options.scroller.getBoundingClientRect().top;
    for (const node of Array.from(this.rows.children) as HTMLElement[]) {
      const rect = node.getBoundingClientRect();
      if (rect.bottom > viewTop && node.dataset.vlKey !== undefined) return { key: node.dataset.vlKey, top: rect.top - viewTop };
    }
    return undefined;
  }

  /** Scrolls so the anchor row is back at its noted distance from the viewport's top. */
  private restoreAnchor(anchor: { key: string; top: number }): void {
    const node = this.mounted.get(anchor.key);
    if (!node?.isConnected) return;
    const scroller = this.options.scroller;
    const drift = node.getBoundingClientRect().top - scroller.getBoundingClientRect().top - anchor.top;
    if (Math.abs(drift) >= 0.5) scroller.scrollTop += drift;
  }

  private offsetOf(index: number): number {
    let sum = 0;
    for (let i = 0; i < index && i < this.heights.length; i++) sum += this.heights[i]!;
    return sum;
  }

  private firstVisible(viewTop: number): number {
    let sum = 0;
    for (let i = 0; i < this.heights.length; i++) {
      sum += this.heights[i]!;
      if (sum > viewTop) return i;
    }
    return Math.max(0, this.heights.length - 1);
  }

  private range(from: number, to: number): [number, number] {
    let sum = 0;
    let first = -1;
    let last = -1;
    for (let i = 0; i < this.heights.length; i++) {
      const h = this.heights[i]!;
      if (first < 0 && sum + h > from) first = i;
      if (sum < to) last = i;
      else break;
      sum += h;
    }
    if (first < 0) first = Math.max(0, this.items.length - 1);
    return [first, Math.max(first - 1, last)];
  }

  private mountRange(first: number, last: number): void {
    const wanted = new Set<string>();
    const nodes: HTMLElement[] = [];
    for (let i = first; i <= last; i++) {
      const item = this.items[i]!;
      const key = this.options.key(item);
      wanted.add(key);
      let node = this.mounted.get(key);
      if (!node) {
        node = this.options.render(item);
        node.dataset.vlKey = key;
        node.dataset.vlIndex = String(i);
        this.mounted.set(key, node);
        this.observer.observe(node);
      }
      node.dataset.vlIndex = String(i);
      nodes.push(node);
    }
    for (const [key, node] of this.mounted) {
      if (wanted.has(key)) continue;
      this.observer.unobserve(node);
      node.remove();
      this.mounted.delete(key);
    }
    // Reorder/insert only where needed, so focused elements and open <details> survive.
    let cursor: ChildNode | null = this.rows.firstChild;
    for (const node of nodes) {
      if (cursor === node) cursor = cursor.nextSibling;
      else this.rows.insertBefore(node, cursor);
    }
  }

  private measure(first: number, last: number): boolean {
    let changed = false;
    for (let i = first; i <= last; i++) {
      const key = this.options.key(this.items[i]!);
      const node = this.mounted.get(key);
      if (!node) continue;
      // Rows have no vertical margins (styles/messages.css), so offsetHeight is the row's full share of the list.
      const h = node.offsetHeight;
      if (h > 0 && Math.abs(h - this.heights[i]!) > 0.5) {
        this.heights[i] = h;
        changed = true;
      }
      if (h > 0) this.known.set(key, h);
    }
    return changed;
  }

  private unmountAll(): void {
    for (const node of this.mounted.values()) {
      this.observer.unobserve(node);
      node.remove();
    }
    this.mounted.clear();
  }
}
