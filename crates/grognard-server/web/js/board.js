// The board as SVG, drawn from the table (`GET /games/{id}/table`: the board and the
// compiled rules, the same for every seat) and the pieces one seat's view holds. It knows
// square grids, pointy-top hex grids (odd rows shoved east) and open tables measured in
// thousandths of an inch; zoom, pan and fit; highlights of legal destinations and targets;
// dragging a base on an open table, snapped to the nearest legal destination.

import { s, put } from './dom.js';

/**
 * Side colours, the editor's own (blue, red, green, gold, purple, near black), so a side
 * looks the same in the editor and on the page; each side's mark tells them apart without
 * colour.
 */
export const SIDE_COLOURS = ['#345CA8', '#B23030', '#3C8246', '#BE8C1E', '#6E4696', '#282828'];
/** A second cue besides colour: each side's blocks carry its own mark. */
const SIDE_MARKS = ['●', '■', '▲', '◆', '★', '✚'];

const CELL = 100;
const HEX_R = CELL / Math.sqrt(3);

const TERRAIN_COLOURS = [
  [/clear|open|plain|grass/, '#f3f0e2'],
  [/heavy.*wood|dense|forest/, '#7fa36b'],
  [/light.*wood|orchard|scrub/, '#bcd6a0'],
  [/wood/, '#98bb83'],
  [/swamp|marsh|bog/, '#9fc4b8'],
  [/lake|water|river|pond/, '#8fbde0'],
  [/fort|castle|wall/, '#8b8680'],
  [/town|village|build|farm|house/, '#c9a98d'],
  [/hill|height|ridge/, '#e2cf9d'],
  [/rough|rock|broken/, '#cbbf9b'],
];
const SPARE = ['#e8dcc4', '#d7e3c6', '#e3d0d8', '#d3dbe8', '#eadfb8'];

/** A terrain's fill, by what its name suggests: only for a terrain the ruleset gives no colour. */
export function terrainColour(name, index) {
  const n = String(name).toLowerCase();
  for (const [re, c] of TERRAIN_COLOURS) if (re.test(n)) return c;
  return index === 0 ? '#f3f0e2' : SPARE[index % SPARE.length];
}

/**
 * Terrain `index`'s fill on `table`'s board: the ruleset's own colour (`terrain_colors`,
 * by terrain id, which the server sends in the table) wherever it gives one, so the page
 * draws the board the designer coloured; a guess from the name only where it is null or
 * missing (an older server's table has none).
 */
export function terrainFill(table, index) {
  const given = table && Array.isArray(table.terrain_colors) ? table.terrain_colors[index] : null;
  if (typeof given === 'string' && given !== '') return given;
  const t = table && table.rules && table.rules.terrain && table.rules.terrain[index];
  return terrainColour((t && t.name) || `terrain ${index}`, index);
}

export function sideColour(i) {
  return SIDE_COLOURS[i % SIDE_COLOURS.length];
}

export function sideMark(i) {
  return SIDE_MARKS[i % SIDE_MARKS.length];
}

/** The board's kind: 'square', 'hex' or 'open'. */
export function geometryOf(board) {
  if (board.surface.open) return 'open';
  return board.surface.grid.grid.hex ? 'hex' : 'square';
}

/** Inches as a player reads them: `4.25″`, `6″`. */
function inches2(x) {
  return `${Number(x.toFixed(2))}″`;
}

export class Board {
  /**
   * svg: the <svg> element. table: {rules, board, sides}. on: {piece(key), dest(item),
   * drop(item)}: what a click on a piece or a highlighted destination, or a base dropped,
   * asks for.
   */
  constructor(svg, table, on) {
    this.svg = svg;
    this.table = table;
    this.on = on;
    this.kind = geometryOf(table.board);
    const surface = table.board.surface;
    if (this.kind === 'open') {
      this.width = surface.open.width;
      this.height = surface.open.height;
      this.unit = 1000; // a table inch
    } else {
      const { cols, rows } = surface.grid;
      this.cols = cols;
      this.rows = rows;
      if (this.kind === 'square') {
        this.width = cols * CELL;
        this.height = rows * CELL;
      } else {
        this.width = (cols + 0.5) * CELL;
        this.height = (rows * 1.5 + 0.5) * HEX_R;
      }
      this.unit = CELL;
    }
    this.pad = this.unit * 0.3;
    // The board's own shape, for a phone's screen (style.css); set through the CSSOM,
    // which the page's Content-Security-Policy allows (a style attribute it would not).
    svg.style.setProperty('--aspect', String((this.width + 2 * this.pad) / (this.height + 2 * this.pad)));
    this.view = null;
    this.drag = null;
    this.pointers = new Map();
    this.model = { tokens: [], dests: [], targets: new Map(), selected: null };
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    this.base = s('g', { class: 'terrain' });
    this.marks = s('g', { class: 'marks' });
    this.layer = s('g', { class: 'pieces' });
    this.top = s('g', { class: 'overlay' });
    svg.replaceChildren(this.base, this.marks, this.layer, this.top);
    this.drawTerrain();
    this.fit();
    this.listen();
  }

  // ---- coordinates ----

  /** The centre of a cell in board units. */
  centre(cell) {
    const { col, row } = cell;
    if (this.kind === 'square') return [col * CELL + CELL / 2, row * CELL + CELL / 2];
    return [CELL * (col + 0.5 * (row & 1)) + CELL / 2, 1.5 * HEX_R * row + HEX_R];
  }

  cellShape(cell, attrs) {
    const [x, y] = this.centre(cell);
    if (this.kind === 'square') {
      return s('rect', { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, ...attrs });
    }
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = ((-90 + 60 * k) * Math.PI) / 180;
      pts.push(`${(x + HEX_R * Math.cos(a)).toFixed(2)},${(y + HEX_R * Math.sin(a)).toFixed(2)}`);
    }
    return s('polygon', { points: pts.join(' '), ...attrs });
  }

  /** A grid facing index as degrees clockwise from east. */
  facingDegrees(index) {
    return this.kind === 'hex' ? [0, 60, 120, 180, 240, 300][index] ?? 0 : index * 45;
  }

  /** Board units from a pointer event. */
  toBoard(event) {
    const pt = this.svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = pt.matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  // ---- zoom and pan ----

  setView(x, y, w, h) {
    this.view = { x, y, w, h };
    this.svg.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
  }

  fit() {
    this.setView(-this.pad, -this.pad, this.width + 2 * this.pad, this.height + 2 * this.pad);
  }

  zoom(factor, about) {
    const v = this.view;
    const [cx, cy] = about || [v.x + v.w / 2, v.y + v.h / 2];
    const w = Math.min(Math.max(v.w / factor, this.unit * 2), (this.width + 2 * this.pad) * 4);
    const f = w / v.w;
    this.setView(cx - (cx - v.x) * f, cy - (cy - v.y) * f, w, v.h * f);
  }

  pan(dx, dy) {
    const v = this.view;
    this.setView(v.x + dx, v.y + dy, v.w, v.h);
  }

  listen() {
    const svg = this.svg;
    svg.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, this.toBoard(e));
      },
      { passive: false },
    );
    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    svg.addEventListener('pointercancel', (e) => this.pointerUp(e, true));
    svg.addEventListener('keydown', (e) => {
      const step = this.view.w / 10;
      const keys = {
        '+': () => this.zoom(1.25),
        '=': () => this.zoom(1.25),
        '-': () => this.zoom(0.8),
        0: () => this.fit(),
        ArrowLeft: () => this.pan(-step, 0),
        ArrowRight: () => this.pan(step, 0),
        ArrowUp: () => this.pan(0, -step),
        ArrowDown: () => this.pan(0, step),
        Escape: () => this.cancelDrag(),
      };
      const act = keys[e.key];
      if (act && (e.target === svg || e.key === 'Escape')) {
        e.preventDefault();
        act();
      } else if ((e.key === 'Enter' || e.key === ' ') && e.target !== svg) {
        e.preventDefault();
        // The page moves the focus on after a key (a mouse leaves it where it is).
        this.keyed = true;
        try {
          e.target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        } finally {
          this.keyed = false;
        }
      }
    });
  }

  pointerDown(e) {
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const token = e.target.closest('[data-key]');
    const key = token && token.getAttribute('data-key');
    if (
      this.kind === 'open' &&
      key &&
      key === this.model.selected &&
      this.model.dests.some((d) => d.point)
    ) {
      const t = this.model.tokens.find((x) => x.key === key);
      if (t && t.at) {
        // No text selection follows the pointer while a base is dragged.
        e.preventDefault();
        this.drag = { key, from: t.at, token: t, moved: false, id: e.pointerId };
        this.svg.setPointerCapture(e.pointerId);
        return;
      }
    }
    if (!token && !e.target.closest('.dest')) {
      this.panning = { x: e.clientX, y: e.clientY, id: e.pointerId, moved: false };
    }
  }

  pointerMove(e) {
    if (!this.pointers.has(e.pointerId)) return;
    const prev = this.pointers.get(e.pointerId);
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (this.pointers.size === 2) {
      // Two fingers: pinch zoom about their midpoint.
      const [a, b] = [...this.pointers.values()];
      const other = [...this.pointers.entries()].find(([id]) => id !== e.pointerId)[1];
      const before = Math.hypot(prev[0] - other[0], prev[1] - other[1]);
      const after = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (before > 0 && after > 0) this.zoom(after / before);
      this.panning = null;
      return;
    }
    if (this.drag && this.drag.id === e.pointerId) {
      this.drag.moved = true;
      this.showDrag(this.toBoard(e));
      return;
    }
    if (this.panning && this.panning.id === e.pointerId) {
      const m = this.svg.getScreenCTM();
      if (!m) return;
      const dx = (e.clientX - this.panning.x) / m.a;
      const dy = (e.clientY - this.panning.y) / m.d;
      if (Math.abs(e.clientX - this.panning.x) + Math.abs(e.clientY - this.panning.y) > 3) {
        this.panning.moved = true;
      }
      this.panning.x = e.clientX;
      this.panning.y = e.clientY;
      this.pan(-dx, -dy);
    }
  }

  pointerUp(e, cancelled = false) {
    this.pointers.delete(e.pointerId);
    if (this.drag && this.drag.id === e.pointerId) {
      const drag = this.drag;
      const snap = drag.snap;
      this.cancelDrag();
      // A drag ends in a click on whatever lies under the pointer: not a selection.
      if (drag.moved) this.justDragged = Date.now();
      if (!cancelled && drag.moved && snap) this.on.drop(snap);
      return;
    }
    if (this.panning && this.panning.id === e.pointerId) {
      const moved = this.panning.moved;
      this.panning = null;
      if (moved) return;
    }
  }

  cancelDrag() {
    const was = this.drag;
    this.drag = null;
    put(this.top);
    // The label said where the drop would go: no longer true.
    if (was && was.moved) this.on.dragging?.(null);
  }

  /** The dragged base: where the pointer is, the legal destination it snaps to, the distance. */
  showDrag(at) {
    const d = this.drag;
    const options = this.model.dests.filter((x) => x.point);
    let best = null;
    let bestDist = Infinity;
    for (const o of options) {
      const dist = Math.hypot(o.point[0] - at[0], o.point[1] - at[1]);
      if (dist < bestDist) {
        bestDist = dist;
        best = o;
      }
    }
    // Brought back onto its own place, the base stays: dropping there gives no order.
    const home = Math.hypot(at[0] - d.from[0], at[1] - d.from[1]) < this.unit * 0.6;
    if (home) best = null;
    d.snap = best;
    const ghost = this.pieceShape(d.token, best ? best.point : at, true);
    const line = s('line', {
      x1: d.from[0],
      y1: d.from[1],
      x2: (best ? best.point : at)[0],
      y2: (best ? best.point : at)[1],
      class: 'drag-line',
    });
    const to = best ? best.point : at;
    const inches = Math.hypot(to[0] - d.from[0], to[1] - d.from[1]) / 1000;
    // The cost is the server's (pivot and terrain included), against the allowance left.
    const cost = best && best.cost ? ` · costs ${inches2(best.cost.cost)} of ${inches2(best.cost.allowance)}` : '';
    // The pointer past every legal place: say the base stops short of it.
    const short = best && bestDist > this.unit * 1.5 ? ' (as far as it may go)' : '';
    const label = home
      ? 'back in place: drop to leave it where it stands'
      : best
        ? `${inches2(inches)}${cost}${short} → ${best.label}`
        : `${inches2(inches)} (no legal destination)`;
    const text = s(
      'text',
      { x: to[0], y: to[1] - this.unit * 1.2, class: 'drag-label', 'text-anchor': 'middle' },
      label,
    );
    put(this.top, line, ghost, text);
    this.on.dragging?.(label);
  }

  // ---- drawing ----

  drawTerrain() {
    const { rules, board } = this.table;
    // Spaced as the editor says them: `medium woods`, not `medium_woods`.
    const nameOf = (i) => ((rules.terrain[i] && rules.terrain[i].name) || `terrain ${i}`).replace(/_/g, ' ');
    const g = this.base;
    if (this.kind === 'open') {
      g.append(
        s('rect', {
          x: 0,
          y: 0,
          width: this.width,
          height: this.height,
          fill: terrainFill(this.table, 0),
          class: 'table',
        }),
      );
      for (const area of board.surface.open.areas || []) {
        const pts = area.corners.map((p) => `${p.x},${p.y}`).join(' ');
        const t = nameOf(area.terrain);
        g.append(
          s('polygon', { points: pts, fill: terrainFill(this.table, area.terrain), class: 'area' },
            s('title', {}, `${area.name || t}: ${t}`)),
        );
        const cx = area.corners.reduce((a, p) => a + p.x, 0) / area.corners.length;
        const cy = area.corners.reduce((a, p) => a + p.y, 0) / area.corners.length;
        g.append(s('text', { x: cx, y: cy, class: 'area-label', 'text-anchor': 'middle' }, area.name || t));
      }
      // An inch grid every 6", faint, to judge distances by eye.
      for (let x = 6000; x < this.width; x += 6000) {
        g.append(s('line', { x1: x, y1: 0, x2: x, y2: this.height, class: 'ruler' }));
      }
      for (let y = 6000; y < this.height; y += 6000) {
        g.append(s('line', { x1: 0, y1: y, x2: this.width, y2: y, class: 'ruler' }));
      }
      return;
    }
    const terrain = board.surface.grid.terrain;
    for (let row = 0; row < this.rows; row++) {
      for (let col = 0; col < this.cols; col++) {
        const t = terrain[row * this.cols + col] ?? 0;
        const name = nameOf(t);
        g.append(
          this.cellShape(
            { col, row },
            { fill: terrainFill(this.table, t), class: 'cell', 'data-cell': `${col},${row}` },
          ),
        );
        if (t !== 0) {
          const [x, y] = this.centre({ col, row });
          g.append(s('text', { x, y: y + CELL * 0.42, class: 'terrain-label', 'text-anchor': 'middle' }, name));
        }
      }
    }
    for (const [[a, b], features] of board.links || []) {
      for (const f of features) this.drawFeature(a, b, rules.features[f]);
    }
    for (const region of board.regions || []) {
      for (const cell of region.cells) {
        this.marks.append(this.cellShape(cell, { class: 'region' }, s('title', {}, region.name)));
      }
      if (region.cells.length) {
        const [x, y] = this.centre(region.cells[0]);
        this.marks.append(s('text', { x, y: y - CELL * 0.36, class: 'region-label', 'text-anchor': 'middle' }, region.name));
      }
    }
    for (let col = 0; col < this.cols; col++) {
      const [x] = this.centre({ col, row: 0 });
      g.append(s('text', { x, y: -4, class: 'coord', 'text-anchor': 'middle' }, col));
    }
    for (let row = 0; row < this.rows; row++) {
      const [, y] = this.centre({ col: 0, row });
      g.append(s('text', { x: -6, y: y + 4, class: 'coord', 'text-anchor': 'end' }, row));
    }
  }

  drawFeature(a, b, def) {
    if (!def) return;
    const [ax, ay] = this.centre(a);
    const [bx, by] = this.centre(b);
    const kind = typeof def.kind === 'string' ? def.kind : Object.keys(def.kind)[0];
    const title = s('title', {}, def.name);
    if (kind === 'road') {
      this.marks.append(s('line', { x1: ax, y1: ay, x2: bx, y2: by, class: 'road' }, title));
      return;
    }
    // The edge the two cells share: its middle, along the perpendicular of their centres.
    const mx = (ax + bx) / 2;
    const my = (ay + by) / 2;
    const len = Math.hypot(bx - ax, by - ay) || 1;
    const nx = -(by - ay) / len;
    const ny = (bx - ax) / len;
    const half = this.kind === 'hex' ? HEX_R / 2 : CELL / 2;
    const edge = { x1: mx - nx * half, y1: my - ny * half, x2: mx + nx * half, y2: my + ny * half };
    const name = def.name.toLowerCase();
    if (kind === 'crossing') {
      const cls = /ford/.test(name) ? 'ford' : 'bridge';
      const k = half * 0.5;
      this.marks.append(
        s('line', { x1: mx - ((bx - ax) / len) * k, y1: my - ((by - ay) / len) * k, x2: mx + ((bx - ax) / len) * k, y2: my + ((by - ay) / len) * k, class: cls }, title),
      );
      return;
    }
    const cls = /river|stream|brook|water|creek/.test(name) ? 'river' : 'barrier';
    this.marks.append(s('line', { ...edge, class: cls }, title));
  }

  /**
   * Draws the pieces and highlights. model: {tokens, dests, targets (Map of key → the
   * selected piece's orders at it, in words), selected (key or null)}. A token: {key, label, title, side, own, blank, cell, cells,
   * at ([x, y]), degrees, base ({width, depth}) }.
   */
  draw(model) {
    this.model = model;
    const layer = this.layer;
    layer.replaceChildren();
    const marks = s('g', { class: 'dests' });
    // Several pieces in one cell are stacked down it so each can be clicked and its name
    // read (issue 40: a diagonal fan of three hid two names under the next counter). Each
    // piece is drawn over the one below it, which it then covers only above that one's
    // name: rows `step` apart, and pieces small enough, turned any way, to stop short of
    // the name's top (a name's glyphs reach 0.08 of a cell above a full piece's centre,
    // scaled as the piece is; a piece turned 45° reaches 0.495 below its own).
    const perCell = new Map();
    for (const t of model.tokens) {
      if (!t.cell) continue;
      const k = `${t.cell.col},${t.cell.row}`;
      perCell.set(k, (perCell.get(k) || 0) + 1);
    }
    const seen = new Map();
    const stacked = (t) => Boolean(t.cell) && perCell.get(`${t.cell.col},${t.cell.row}`) > 1;
    // Bottom of each stack first, so the pieces above it are drawn over it.
    const order = [...model.tokens.filter((t) => !stacked(t)), ...model.tokens.filter(stacked).reverse()];
    for (const t of order) {
      let at = t.at;
      let scale = 1;
      if (t.cell) {
        const k = `${t.cell.col},${t.cell.row}`;
        const n = perCell.get(k);
        // Counted from the bottom (drawn first): row 0 at the stack's foot.
        const i = seen.get(k) || 0;
        seen.set(k, i + 1);
        const [x, y] = this.centre(t.cell);
        const step = n > 1 ? Math.min(CELL * 0.36, (CELL * 0.9) / (n - 1)) : 0;
        scale = n > 1 ? Math.min(0.62, step / (CELL * 0.575)) : 1;
        const row = (n - 1) / 2 - i;
        at = [x - row * CELL * 0.04, y - row * step];
        for (const extra of t.cells || []) {
          layer.append(this.cellShape(extra, { class: 'spread', stroke: sideColour(t.side) }));
        }
      }
      if (!at) continue;
      layer.append(this.pieceShape(t, at, false, scale));
    }
    for (const d of model.dests) {
      const attrs = { class: 'dest', tabindex: 0, role: 'button', 'aria-label': d.label, 'data-dest': d.id };
      let el;
      if (d.cell) {
        el = this.cellShape(d.cell, attrs);
      } else if (d.point) {
        el = s('circle', { cx: d.point[0], cy: d.point[1], r: this.unit * 0.35, ...attrs });
      } else continue;
      el.append(s('title', {}, d.label));
      el.addEventListener('click', (e) => {
        e.stopPropagation();
        this.on.dest(d, this.keyed === true);
      });
      marks.append(el);
    }
    // On an open table the destinations lie under the bases, so a base can be picked up
    // even where a destination (a turn on the spot) lies beneath it.
    if (this.kind === 'open') layer.prepend(marks);
    else layer.append(marks);
  }

  /** One piece: a block on a grid, a base (or a disc for a point) on an open table. */
  pieceShape(t, at, ghost = false, scale = 1) {
    const colour = sideColour(t.side);
    const classes = ['piece', t.own ? 'own' : 'enemy'];
    if (t.blank) classes.push('blank');
    if (t.stale) classes.push('stale');
    if (t.facedown) classes.push('facedown');
    if (t.lastSeen) classes.push('lastseen');
    if (ghost) classes.push('ghost');
    if (t.key === this.model.selected) classes.push('selected');
    const target = !ghost && this.model.targets.has(t.key);
    if (target) classes.push('target');
    // A target says so to a screen reader: what the selected piece may do to it.
    const label = target ? `${t.title}. A target: ${this.model.selected} may ${this.model.targets.get(t.key)} — Enter to choose` : t.title;
    const g = s('g', {
      class: classes.join(' '),
      transform: `translate(${at[0]} ${at[1]}) rotate(${t.degrees || 0})`,
      'data-key': ghost ? null : t.key,
      tabindex: ghost ? null : 0,
      role: ghost ? null : 'button',
      'aria-label': ghost ? null : label,
    });
    if (!ghost) g.append(s('title', {}, label));
    let w;
    let d;
    if (this.kind === 'open') {
      if (t.base) {
        w = t.base.width;
        d = t.base.depth;
      } else {
        w = d = this.unit * 1.2;
      }
    } else {
      w = d = CELL * 0.7 * scale;
    }
    const body =
      this.kind === 'open' && !t.base
        ? s('circle', { r: w / 2, fill: colour, class: 'body' })
        : s('rect', { x: -d / 2, y: -w / 2, width: d, height: w, rx: Math.min(w, d) * 0.08, fill: t.lastSeen ? 'none' : colour, class: 'body' });
    // Set through the CSSOM (the stylesheet's black edge would win over an attribute, and
    // the page's Content-Security-Policy refuses a style attribute).
    if (t.lastSeen) body.style.setProperty('stroke', colour);
    g.append(body);
    // The front: a bar along the edge the piece faces (none where it was only last seen).
    if (t.faces !== false && !t.lastSeen) {
      g.append(s('line', { x1: d / 2, y1: -w / 2, x2: d / 2, y2: w / 2, class: 'front' }));
    }
    if (t.label) {
      // The label reads upright whatever the facing; white on every side's colour, face
      // up or face down (the editor's ink), and in the side's colour beside an outline
      // where a piece was last seen, so the handle its log names it by can be found.
      const size = this.kind === 'open' ? Math.max(500, Math.min(w, 1400) * 0.5) : CELL * 0.2 * scale;
      const attrs = { class: 'label', transform: `rotate(${-(t.degrees || 0)})`, 'text-anchor': 'middle', y: size * 0.35, 'font-size': size };
      const text = s('text', attrs, t.label);
      if (t.lastSeen) text.style.setProperty('fill', colour);
      g.append(text);
    }
    g.append(
      s('text', { class: 'mark', transform: `rotate(${-(t.degrees || 0)})`, x: -d / 2 + 2, y: -w / 2 + (this.kind === 'open' ? 500 : CELL * 0.16 * scale), 'font-size': this.kind === 'open' ? 500 : CELL * 0.16 * scale, fill: t.lastSeen ? colour : '#fff' }, sideMark(t.side)),
    );
    if (!ghost) {
      g.addEventListener('click', (e) => {
        e.stopPropagation();
        if (this.drag || Date.now() - (this.justDragged || 0) < 400) return;
        this.on.piece(t.key, this.keyed === true);
      });
    }
    return g;
  }
}
