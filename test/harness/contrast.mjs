// Text contrast as WCAG 2 defines it, measured in the page: an element's text colour against the first
// opaque background behind it (its own or an ancestor's). For UI assertions that text stays readable in
// every theme (4.5:1 for normal text).

/** Runs in the page: { ratio, color, background } of `element`'s text. Pass to locator.evaluate. */
export function measureContrast(element) {
  const parse = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  let node = element;
  let background = 'rgb(255, 255, 255)';
  while (node) {
    const bg = getComputedStyle(node).backgroundColor;
    const parts = parse(bg);
    if (parts.length >= 3 && (parts.length < 4 || parts[3] === 1)) { background = bg; break; }
    node = node.parentElement;
  }
  const color = getComputedStyle(element).color;
  const [a, b] = [luminance(parse(color)), luminance(parse(background))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  return { ratio: Math.round(ratio * 100) / 100, color, background };
}
