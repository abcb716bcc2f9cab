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

/** The order in words, as a list or a button says it. */
export function describe(order) {
  const k = kindOf(order);
  const b = order[k];
  switch (k) {
    case 'move': {
      const path = b.path || [];
      const end = path[path.length - 1];
      return end ? `move to ${cellText(end)}${path.length > 1 ? ` via ${path.slice(0, -1).map(cellText).join(' ')}` : ''}` : 'move';
    }
    case 'move_to':
      return `move to ${b.to[0]}″, ${b.to[1]}″${b.facing !== undefined ? ` facing ${b.facing}°` : ''}`;
    case 'face':
      return `face ${b.facing}`;
    case 'mode':
      return `change to ${b.mode}`;
    case 'act':
      return `${b.action.replaceAll('_', ' ')}${b.target ? ` → ${b.target}` : ''}${b.intent && b.intent.length ? ` (${b.intent.join(', ')})` : ''}`;
    case 'save':
      return `stand and save points toward ${cellText(b.toward)}`;
    case 'extend':
      return `extend into ${cellText(b.to)}`;
    case 'gather':
      return 'gather';
    case 'deploy':
      return `deploy at ${cellText(b.at)}${b.facing ? ` facing ${b.facing}` : ''}`;
    case 'redeploy':
      return `lift and put down at ${cellText(b.to)}`;
    case 'end_phase':
      return 'end the phase';
    default:
      return JSON.stringify(order);
  }
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
