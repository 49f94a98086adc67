// The few DOM calls the chat webview's render modules make (createElement, createTextNode, setAttribute,
// createElementNS for icons, append, classList), recorded as a plain tree, so a card can be rendered and read in Node.
export interface FakeNode {
  tag: string;
  attrs: Record<string, string>;
  children: Array<FakeNode | string>;
}

class FakeElement implements FakeNode {
  attrs: Record<string, string> = {};
  children: Array<FakeNode | string> = [];
  constructor(readonly tag: string) {}
  setAttribute(name: string, value: string): void {
    this.attrs[name] = value;
  }
  append(...nodes: Array<FakeNode | string | { text: string }>): void {
    for (const node of nodes) this.children.push(typeof node === 'object' && 'text' in node && !('tag' in node) ? node.text : (node as FakeNode | string));
  }
  /** listeners are recorded, never fired (nothing clicks here) */
  readonly listeners: string[] = [];
  addEventListener(type: string): void {
    this.listeners.push(type);
  }
  get classList() {
    return { add: (...names: string[]) => (this.attrs.class = [this.attrs.class ?? '', ...names].join(' ').trim()) };
  }
}

/** Installs the fake `document` on globalThis (the render modules use the global). */
export function installFakeDocument(): void {
  (globalThis as { document?: unknown }).document = {
    createElement: (tag: string) => new FakeElement(tag),
    createElementNS: (_ns: string, tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => ({ text }),
  };
  // The store batches change notifications per frame; no frame ever comes here, which is fine.
  (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame = () => 0;
}

export function textOf(node: FakeNode | string): string {
  return typeof node === 'string' ? node : node.children.map(textOf).join('');
}

/** Every element below `node` (itself included) whose class list has `name`. */
export function byClass(node: FakeNode | string, name: string): FakeNode[] {
  if (typeof node === 'string') return [];
  const own = (node.attrs.class ?? '').split(/\s+/).includes(name) ? [node] : [];
  return [...own, ...node.children.flatMap((child) => byClass(child, name))];
}

export function byAttr(node: FakeNode | string, attr: string, value: string): FakeNode[] {
  if (typeof node === 'string') return [];
  const own = node.attrs[attr] === value ? [node] : [];
  return [...own, ...node.children.flatMap((child) => byAttr(child, attr, value))];
}
