// Inline SVG icons in the codicon style (16×16, currentColor). Drawn here instead of loading the codicon
// font: no extra resource for the CSP to allow, and no new package. Every icon is decorative
// (aria-hidden); the button that holds it carries the accessible name.
const NS = 'http://www.w3.org/2000/svg';

export type IconName = 'branch' | 'edit' | 'copy' | 'tag' | 'check' | 'list' | 'tree' | 'fold' | 'pin' | 'summarize' | 'key' | 'image' | 'retry' | 'retryModel';

type Shape = { d: string; fill?: boolean } | { circle: [number, number, number] };

const SHAPES: Record<IconName, Shape[]> = {
  // git-branch: a trunk with a side branch
  branch: [
    { d: 'M5 3.5v9M5 10c0-3 6-2.5 6-5.5' },
    { circle: [5, 3, 1.5] },
    { circle: [5, 13, 1.5] },
    { circle: [11, 4, 1.5] },
  ],
  edit: [{ d: 'M10.5 2.5l3 3L6 13H3v-3z M9 4l3 3' }],
  copy: [{ d: 'M5.5 5.5h7v8h-7z M3.5 10.5v-8h7' }],
  tag: [{ d: 'M2.5 2.5h5.5l6 6-5.5 5.5-6-6z' }, { circle: [5.5, 5.5, 1] }],
  check: [{ d: 'M3 8.5l3 3 7-7' }],
  // compaction: lines folded together
  fold: [{ d: 'M3 3.5h10M3 12.5h10M8 5.5v5M6 7.5l2-2 2 2M6 8.5l2 2 2-2' }],
  list: [{ d: 'M2.5 4h11M2.5 8h11M2.5 12h11' }],
  // a push pin: head, body, needle
  pin: [{ d: 'M5.5 2.5h5M6.5 2.5v4l-2 3h7l-2-3v-4M8 9.5v4.5' }],
  // summarize from here: lines from this point on folded into one
  summarize: [{ d: 'M2.5 3.5h11M2.5 6.5h11M4 9.5l4 3 4-3M2.5 14h11' }],
  // the in-panel conversation tree: a root with two branches
  // a key: round bow, shaft and two teeth
  key: [{ circle: [5, 8, 0.9] }, { d: 'M7.6 8a2.6 2.6 0 1 1-5.2 0a2.6 2.6 0 1 1 5.2 0z M7.6 8h6 M11.5 8v2 M13.5 8v2.5' }],
  tree: [{ d: 'M4 2v12M4 8c0-2 2-3 4-3h2M4 11c0-1.5 2-2 4-2h2' }, { circle: [12, 5, 1.6] }, { circle: [12, 9, 1.6] }, { circle: [4, 14, 1.6] }],
  // retry: a circular arrow
  retry: [{ d: 'M12.5 8a4.5 4.5 0 1 1-1.3-3.2 M11.5 2.5v2.8h-2.8' }],
  // retry with another model: the circular arrow around a small chip
  retryModel: [{ d: 'M12.5 8a4.5 4.5 0 1 1-1.3-3.2 M11.5 2.5v2.8h-2.8' }, { d: 'M6.5 6.5h3v3h-3z' }],
  // attach image: a picture frame with a hill and the sun
  image: [{ d: 'M2.5 3.5h11v9h-11z M2.5 11l3.5-3.5 3 3 1.5-1.5 3 3' }, { circle: [10.5, 6, 1.2] }],
};

export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.classList.add('icon', `icon-${name}`);
  for (const shape of SHAPES[name]) {
    if ('circle' in shape) {
      const c = document.createElementNS(NS, 'circle');
      const [cx, cy, r] = shape.circle;
      c.setAttribute('cx', String(cx));
      c.setAttribute('cy', String(cy));
      c.setAttribute('r', String(r));
      c.setAttribute('fill', 'currentColor');
      svg.append(c);
    } else {
      const p = document.createElementNS(NS, 'path');
      p.setAttribute('d', shape.d);
      p.setAttribute('fill', 'none');
      p.setAttribute('stroke', 'currentColor');
      p.setAttribute('stroke-width', '1.3');
      p.setAttribute('stroke-linecap', 'round');
      p.setAttribute('stroke-linejoin', 'round');
      svg.append(p);
    }
  }
  return svg;
}
