// The seat's legal orders (the `legal` list the server sends), read for the page: which
// piece each one moves, where to, at whom, and a line of words for each. The page offers
// nothing else: every order it sends is one of these items, unchanged.

/** The kind of an order item: 'move', 'move_to', 'face', 'mode', 'act', 'end_phase'... */
export function kindOf(order) {
  for (const k of ['move', 'move_to', 'face', 'mode', 'act', 'save', 'extend', 'gather', 'deploy', 'redeploy']) {
    if (order[k] !== undefined) return k;
  }
  return order.end_phase ? 'end_phase' : 'other';
}

/** The piece an order is given to (its name as the side knows it), or null. */
export function pieceOf(order) {
  const k = kindOf(order);
  if (k === 'gather') return order.gather;
  const body = order[k];
  return body && typeof body === 'object' && typeof body.piece === 'string' ? body.piece : null;
}

const cellText = (c) => `(${c[0]},${c[1]})`;

/** A ruleset's name as a player reads it: `fire_small` is `fire small`. */
const spaced = (name) => String(name).replace(/_/g, ' ');

/** Steps in words, the noun agreeing with the number: `1 step`, `2 steps`. */
const steps = (n) => `${n} step${n === 1 ? '' : 's'}`;

/** Inches as the editor's tape says them: to a hundredth at most, no trailing zeros. */
function inchesText(x) {
  let t = Number(x).toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
  if (t === '-0') t = '0';
  return `${t}"`;
}

/** A value of an order as the editor's list says it: a cell as `(3,4)`, text as it is. */
function valueText(v) {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number')) return cellText(v);
  return JSON.stringify(v);
}

/**
 * The order in words, the piece it moves apart — the editor's words for the same order
 * (`grognard_editor::words::order_words`), so a seat reads one wording in the editor and
 * on the page: `→ (3,4), 2 steps`, `fire small at r1`, `face E`, `mode line`, `end phase`.
 */
export function describe(order) {
  const k = kindOf(order);
  const b = order[k];
  if (k === 'end_phase') return 'end phase';
  // An order whose body is not an object (`gather: b1`) reads as the editor's `gather b1`.
  if (!b || typeof b !== 'object') return b === true || b === undefined ? spaced(k) : `${spaced(k)} ${valueText(b)}`;
  // What else the order says, after its main words, as `key value` (a value named as the
  // order's kind, `mode: {mode: line}`, or a face's facing, reads as the value alone).
  const rest = (skip) =>
    Object.entries(b)
      .filter(([key]) => key !== 'piece' && !skip.includes(key))
      .map(([key, v]) => (key === k || (k === 'face' && key === 'facing') ? valueText(v) : `${spaced(key)} ${valueText(v)}`));
  switch (k) {
    case 'move': {
      const path = b.path || [];
      const end = path[path.length - 1];
      if (!end) return 'move';
      return [`→ ${cellText(end)}, ${steps(path.length)}`, ...rest(['path'])].join(', ');
    }
    case 'move_to': {
      const to = Array.isArray(b.to) ? `(${inchesText(b.to[0])}, ${inchesText(b.to[1])})` : '?';
      return [`→ ${to}`, ...rest(['to'])].join(', ');
    }
    case 'act': {
      let w = spaced(b.action || 'act');
      if (b.target !== undefined) w += ` at ${valueText(b.target)}`;
      return [w, ...rest(['action', 'target'])].join(', ');
    }
    default:
      return [spaced(k), ...rest([])].join(' ');
  }
}

/** What an order does to its target, its target left out (`fire small`), or null. */
export function actionOf(order) {
  return order.act && order.act.action ? spaced(order.act.action) : null;
}

/** The order in words with its piece first (`b1 → (3,4), 2 steps`), as a message says it. */
export function describeWhole(order) {
  const piece = pieceOf(order);
  const body = order[kindOf(order)];
  return piece && body && typeof body === 'object' ? `${piece} ${describe(order)}` : describe(order);
}

/** Orders grouped by piece, in the order the server listed them; `null` holds the rest. */
export function groupByPiece(legal) {
  const groups = new Map();
  legal.forEach((order, index) => {
    const p = pieceOf(order);
    if (!groups.has(p)) groups.set(p, []);
    groups.get(p).push({ order, index });
  });
  return groups;
}

/** Where an order puts its piece on a grid, as a cell, or null. */
export function cellOf(order) {
  const k = kindOf(order);
  const b = order[k];
  const c =
    k === 'move' ? b.path[b.path.length - 1] : k === 'save' ? b.toward : k === 'extend' || k === 'redeploy' ? b.to : k === 'deploy' ? b.at : null;
  return c ? { col: c[0], row: c[1] } : null;
}

/** Where a `move_to` puts its piece, in thousandths of an inch, or null. */
export function pointOf(order) {
  return order.move_to ? [order.move_to.to[0] * 1000, order.move_to.to[1] * 1000] : null;
}

/** The piece an order aims at (its `target`), or null. */
export function targetOf(order) {
  return order.act && order.act.target ? order.act.target : null;
}
