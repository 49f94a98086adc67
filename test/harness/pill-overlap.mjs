// Whether the chat's "Jump to latest" pill covers message text (webview/render/jump-latest.ts): every line of
// message text the conversation shows (the part inside its clip), the last one included, against the pill's box.
/** Runs in the chat frame (`frame.locator('#app').evaluate(pillOverText)`). */
export function pillOverText() {
  const pill = document.getElementById('jump-latest').getBoundingClientRect();
  const view = document.getElementById('conversation').getBoundingClientRect();
  const walker = document.createTreeWalker(document.getElementById('conversation'), NodeFilter.SHOW_TEXT);
  const lines = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !node.parentElement.closest('.msg')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const top = Math.max(r.top, view.top);
      const bottom = Math.min(r.bottom, view.bottom);
      if (bottom > top && r.width > 0) lines.push({ top, bottom, left: r.left, right: r.right, text: node.textContent.trim().slice(0, 30) });
    }
  }
  const last = lines.reduce((a, b) => (b.bottom > a.bottom ? b : a), lines[0]);
  const hit = (r) => r.bottom > pill.top && r.top < pill.bottom && r.right > pill.left && r.left < pill.right;
  return { lines: lines.length, last, pill: { top: pill.top, bottom: pill.bottom, left: pill.left, right: pill.right }, viewBottom: view.bottom, covered: lines.filter(hit).map((r) => r.text) };
}
