// A branched conversation as the host sends its tree (file order, flags from the leaf), for the tree
// graph bench and its screenshots: `turns` turns of a user message and a reply (some with a tool call
// and result), a compaction every 150 turns, and every ~12 turns a branch back 1–6 turns, half of them
// with a branch summary. Deterministic.
export function graphSession(turns, seed = 7) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const raw = [];
  /** entry ids on the current path, and where each turn on it ends */
  const path = [];
  const turnEnds = [];
  let clock = Date.UTC(2025, 0, 1);
  const add = (kind, preview, extra = {}) => {
    const id = `g${raw.length}`;
    raw.push({ id, parentId: path.at(-1) ?? null, kind, preview, timestamp: (clock += 1000), ...extra });
    path.push(id);
    return id;
  };
  const topics = ['the failing test in src/tree.ts', 'a changelog entry', 'the README intro', 'the lane layout', 'error handling in the parser', 'the settings page', 'a faster session index'];
  for (let t = 0; t < turns; t++) {
    if (t > 8 && t % 12 === 0) {
      const back = 1 + Math.floor(rand() * 6);
      const to = turnEnds[Math.max(0, turnEnds.length - 1 - back)];
      path.length = path.indexOf(to) + 1;
      turnEnds.length = turnEnds.indexOf(to) + 1;
      if (rand() < 0.5) {
        add('branch_summary', 'Tried another approach to the parser; kept the tests, dropped the refactor.');
        turnEnds.push(path.at(-1));
        t++;
        if (t >= turns) break;
      }
    }
    if (t > 0 && t % 150 === 0) {
      add('compaction', 'Goal: ship the tree graph. Done: layout, tests. Next: the minimap.');
      turnEnds.push(path.at(-1));
      t++;
      if (t >= turns) break;
    }
    const topic = topics[t % topics.length];
    add('user', `Turn ${t}: please look at ${topic} and fix it`, t % 40 === 5 ? { label: `checkpoint ${t}` } : {});
    if (rand() < 0.3) {
      add('assistant', `Reading the files for ${topic}`);
      add('toolResult', 'read src/tree.ts (240 lines)');
    }
    add('assistant', `Done: ${topic} is fixed and the tests pass.`);
    turnEnds.push(path.at(-1));
  }
  const leafId = path.at(-1);
  const onPath = new Set(path);
  const childCount = new Map();
  for (const n of raw) if (n.parentId) childCount.set(n.parentId, (childCount.get(n.parentId) ?? 0) + 1);
  const nodes = raw.map((n) => ({ ...n, onActivePath: onPath.has(n.id), isLeaf: n.id === leafId, childCount: childCount.get(n.id) ?? 0 }));
  return { nodes, leafId };
}
