// The play page (`/play/{game}#token=...`): one seat of one game, live over the game's
// WebSocket. Everything it shows comes from what the server sends this seat — the table
// (board and rules, public), the seat's state (its view, text, legal orders) and the
// chat — and every order it sends is an item of the seat's `legal` list.

import { h, put, byId, fragmentToken } from './dom.js';
import { api, Live } from './net.js';
import { Board, sideColour, sideMark } from './board.js';
import { groupByPiece, describe, describeWhole, actionOf, cellOf, pointOf, targetOf, pieceOf, kindOf } from './orders.js';

const game = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const token = fragmentToken();

const page = {
  seat: null,
  table: null,
  state: null,
  board: null,
  selected: null,
  choices: null,
  pending: false,
  chat: new Map(),
};

const el = {
  title: byId('title'),
  seat: byId('seat'),
  conn: byId('conn'),
  status: byId('status'),
  message: byId('message'),
  endPhase: byId('end-phase'),
  undo: byId('undo'),
  selected: byId('selected'),
  orders: byId('orders'),
  pieces: byId('pieces'),
  log: byId('log'),
  chatLines: byId('chat-lines'),
  chatForm: byId('chat-form'),
  chatText: byId('chat-text'),
  svg: byId('board'),
  result: byId('result'),
  legend: byId('legend'),
  thinking: byId('thinking'),
};

/**
 * The message line. `about` says what it is about, so it clears once no longer true:
 * 'conn' (not sent: no connection) when the connection is back, 'order' (sent, refused,
 * an error) with the next state, 'drag' when the drag ends in an order.
 */
function say(text, kind = 'info', about = 'order') {
  el.message.textContent = text;
  el.message.className = kind;
  el.message.dataset.about = about;
}

function unsay(...about) {
  if (!el.message.textContent || !about.includes(el.message.dataset.about)) return;
  say('', 'info', '');
}

// ---- what the seat's view holds, as the board's tokens ----

function degreesOf(place, facing) {
  if (place && place.point) return place.point.facing / 10;
  return page.board ? page.board.facingDegrees(facing ?? 0) : 0;
}

function placeParts(place) {
  if (!place || place === 'off') return null;
  if (place.cell) return { cell: place.cell };
  if (place.spread) return { cell: place.spread[0], cells: place.spread.slice(1) };
  if (place.point) return { at: [place.point.at.x, place.point.at.y] };
  return null;
}

/** Each counter's starting value, by name, from the table's rules. */
function initials() {
  const out = new Map();
  for (const c of (page.table && page.table.rules && page.table.rules.counters) || []) out.set(c.name, c.initial ?? 0);
  return out;
}

/** A flag a player reads at a glance: one plain word (`fired`, `routed`), not bookkeeping. */
const plainFlag = (f) => /^[a-z]+$/i.test(f);

/**
 * A piece's facts as a player reads them: `shown` (counters away from their starting value,
 * plain flags) and `more` (every other counter and flag, for a "details" disclosure).
 */
function factsOf(n) {
  const start = initials();
  const shown = [];
  const more = [];
  for (const [k, v] of Object.entries(n.counters || {})) (v !== (start.get(k) ?? 0) ? shown : more).push(`${spaced(k)} ${v}`);
  for (const f of n.flags || []) (plainFlag(f) ? shown : more).push(spaced(f));
  return { shown, more };
}

/** A ruleset's counter or flag name as a player reads it: `cvs_i` is `cvs i`. */
const spaced = (name) => String(name).replace(/_/g, ' ');

/**
 * Whether a piece of type `kind` has a facing worth saying: a type that declares none (a
 * commander symbol) has none, whatever number its piece carries; a point on an open table
 * always faces.
 */
function facesOf(kind, place) {
  if (place && place.point) return true;
  if (!kind) return false;
  const types = (page.table && page.table.rules && page.table.rules.piece_types) || [];
  const t = types.find((x) => x.name === kind);
  return !t || t.faces !== false;
}

function describeNames(name, n, place) {
  const parts = [`${name}: ${spaced(n.kind)}`, spaced(n.mode)];
  if (facesOf(n.kind, place)) parts.push(`facing ${n.facing}`);
  const { shown } = factsOf(n);
  if (shown.length) parts.push(shown.join(', '));
  return parts.join(' · ');
}

/**
 * What the seat's log says of pieces off the board: removals with their reason, and which
 * pieces were ever in play (named by an event other than a counter's change).
 */
function offBoardOf(state) {
  const removed = new Map();
  const played = new Set();
  for (const line of logLines(state)) {
    if (!line.startsWith('  ')) continue;
    const m = /^\s+(\S+) removed \((.*)\)$/.exec(line);
    if (m) removed.set(m[1], m[2]);
    if (!counterLine(line.trim())) played.add(line.trim().split(' ')[0]);
  }
  return { removed, played };
}

/**
 * Why an own piece is off the board, in words: removed (with the log's reason when it has
 * one), or — never in play yet — not yet arrived.
 */
function offWords(name, off) {
  // One level of brackets at most: the list puts these words after a dash, and the
  // reason after a colon ("hale (removed (commander killed …))" read as brackets in brackets).
  if (off.removed.has(name)) return `removed: ${off.removed.get(name)}`;
  return off.played.has(name) ? 'removed' : 'not yet arrived';
}

/**
 * The letter a counter shows after its name for its mode (`b1 L` in line), as the editor
 * draws it (`grognard_editor::scene::label_lines`); the legend says what each letter is.
 */
export function modeLetter(mode) {
  const m = mode ? spaced(mode).charAt(0).toUpperCase() : '';
  return m ? ` ${m}` : '';
}

/**
 * The pieces this seat may see, as tokens: own in full, enemies as known — drawn as the
 * editor draws one seat's view (`grognard_editor::view`): an enemy whose marker is face
 * up and whose type is known face up; any other enemy where it stands face down (the
 * side's colour, faded); where one was last seen, an outline.
 */
function tokensOf(state) {
  const tokens = [];
  const v = state.view;
  if (!v) return tokens;
  const views = v.views ? v.views : v.view ? [v.view] : [];
  const referee = Boolean(v.views);
  const off = offBoardOf(state);
  // With sighting rules, an enemy with no sighting level now is known, not seen.
  const sighting = Boolean(page.table && page.table.rules && page.table.rules.sighting);
  for (const view of views) {
    view.own.forEach((p, i) => {
      const n = view.own_names[i];
      const where = placeParts(p.place);
      const facts = factsOf(n);
      tokens.push({
        key: p.name,
        label: `${p.name}${modeLetter(n.mode)}`,
        title: where ? describeNames(p.name, n, p.place) : `${p.name}: ${spaced(n.kind)}`,
        more: facts.more,
        offWords: where ? null : offWords(p.name, off),
        names: n,
        side: p.side,
        own: !referee,
        onBoard: Boolean(where),
        ...(where || {}),
        degrees: degreesOf(p.place, p.facing),
        faces: facesOf(n.kind, p.place),
        base: n.base,
      });
    });
    if (referee) continue;
    for (const e of view.enemy) {
      const name = e.identity ? e.identity.name : `#${e.handle}`;
      const known = e.kind || e.identity;
      const here = placeParts(e.place);
      const stale = !here && e.last_seen ? placeParts(e.last_seen.place) : null;
      // Known (its place, what it was when seen) but out of sight now: drawn faded. A piece
      // face up for this side now (a scout, an officer: in plain view on the table) is in
      // sight whatever its sighting level; its view holds what it is now.
      const unseen = Boolean(stale) || (sighting && here && e.level === null && Boolean(known) && !e.face_up);
      const bits = [name];
      if (e.kind) bits.push(spaced(e.kind));
      if (e.real === false) bits.push('a dummy');
      // A C sighting tells a real block from a dummy without turning it up.
      else if (e.real === true && !e.identity && !e.face_up) bits.push('real, not a dummy');
      if (e.level) bits.push(`sighting ${e.level}`);
      if (e.strength !== null && e.strength !== undefined) bits.push(`strength ${e.strength}`);
      // A block of unknown type faces as the view says (the editor draws its arrow).
      const kindKnown = e.kind || (e.names && e.names.kind);
      const faces = kindKnown ? facesOf(kindKnown, e.place) : e.facing !== null && e.facing !== undefined;
      if (e.facing_name && faces) bits.push(`facing ${e.facing_name}`);
      if (stale) bits.push(`last seen turn ${e.last_seen.turn}`);
      else if (unseen) bits.push('not in sight now: last seen here, as it was then');
      if (!known) bits.push('unidentified');
      const facts = e.names ? factsOf(e.names) : { more: [] };
      tokens.push({
        key: name,
        // The name the side's log uses (#9): "french sights enemy #9" must be findable on
        // the board; then its mode's letter, as on the side's own counters.
        label: `${name}${modeLetter(e.mode || (e.names && e.names.mode))}`,
        title: bits.join(' · '),
        more: facts.more,
        names: e.names,
        side: e.side,
        own: false,
        blank: !known,
        stale: unseen,
        // The editor's looks: face down unless its marker is up and its type known; an
        // outline where it was last seen.
        facedown: Boolean(here) && !(e.face_up && known),
        lastSeen: Boolean(stale),
        onBoard: Boolean(here || stale),
        ...(here || stale || {}),
        degrees: degreesOf(e.place || (e.last_seen && e.last_seen.place), e.facing ?? (e.last_seen && e.last_seen.facing)),
        faces,
        base: e.names ? e.names.base : null,
      });
    }
  }
  return tokens;
}

// ---- rendering ----

function sideName(i) {
  return (page.table && page.table.sides[i]) || `side ${i}`;
}

/** The policy the server plays `side` with (`search`, `greedy`, …), or null for a person. */
function computerOf(side) {
  const p = page.table && page.table.policies && page.table.policies[side];
  if (typeof p !== 'string' || !p) return null;
  // `search:500`, `search:it=200` and `lua:FILE:FUNCTION` read by their kind.
  return p.split(':')[0];
}

/** A side's name, with "— computer (search)" when the server plays it. */
function sideWords(side) {
  const p = computerOf(side);
  return p ? `${side} — computer (${p})` : side;
}

/** " — computer (search)" after a side's name when the server plays it, else nothing. */
function computerTag(side) {
  const p = computerOf(side);
  return p ? ` — computer (${p})` : '';
}

/**
 * The sides the server's computer plays that are to act now. The server sends the seats
 * each state before its computer acts on it and again after, so while the game goes on
 * (not over, not paused) these are the sides it is thinking for.
 */
function thinkingSides(st) {
  if (st.over || st.paused) return [];
  return st.to_act.filter((s) => computerOf(s));
}

/** The definition of a phase in the table's sequence of play (any variant), by name. */
function phaseDef(name) {
  const seq = page.table && page.table.rules && page.table.rules.sequence;
  if (!seq) return null;
  for (const part of [seq, ...(seq.variants || [])]) {
    for (const list of [part.turn_start, part.side_turn, part.turn_end]) {
      const hit = (list || []).find((d) => d.name === name);
      if (hit) return hit;
    }
  }
  return null;
}

/** Whose turn it is and, when another side acts in it, who: "red's turn; blue acts". */
function turnWords(phase, phasing) {
  const def = phaseDef(phase);
  const others = ((page.table && page.table.sides) || []).filter((x) => x !== phasing);
  if (def && def.actor === 'non_phasing' && others.length) return `${phasing}'s turn; ${others.join(' and ')} ${others.length > 1 ? 'act' : 'acts'}`;
  if (def && def.actor === 'both') return `${phasing}'s turn; every side acts`;
  return `${phasing}'s turn`;
}

/** The side whose turn it is now, as the seat's view says (none for a spectator). */
function phasingNow() {
  const v = page.state.view;
  const view = v && (v.view || (v.views && v.views[0]));
  return view && typeof view.phasing === 'string' ? view.phasing : null;
}

function renderStatus() {
  const st = page.state.status;
  // The seat of a side the server plays is never a person's move: its page says it thinks.
  const mine = page.table && page.table.sides.includes(page.seat) && st.to_act.includes(page.seat) && !computerOf(page.seat);
  document.body.dataset.orders = String(st.orders);
  document.body.dataset.turn = mine ? 'yours' : 'theirs';
  const thinking = thinkingSides(st);
  document.body.dataset.thinking = thinking.join(' ');
  let line;
  if (st.over) line = `Game over: ${st.result ? st.result.why : 'no result'}`;
  else {
    const who = st.to_act.length ? st.to_act.map(sideWords).join(' and ') : 'nobody';
    const phasing = phasingNow();
    // In a phase the sides share, every seat in it acts at once: "your move" would say the
    // others wait for it, and "french's turn" that the Austrians do.
    const others = st.to_act.filter((s) => s !== page.seat);
    const shared = mine && others.length > 0;
    const turn = !phasing ? '' : shared ? ` (${phasing} phasing)` : ` · ${phasing}'s turn${computerTag(phasing)}`;
    const yours = others.length ? `you (${page.seat}) and ${others.join(' and ')} act at once` : `your move (${page.seat})`;
    // The server's computer to act: it is thinking now, and says so until its orders come.
    const theirs = thinking.length ? `${thinking.map(sideWords).join(' and ')} ${thinking.length > 1 ? 'are' : 'is'} thinking…` : `${who} to act`;
    line = `Turn ${st.turn} · ${st.phase} phase${turn} · ${mine ? yours : theirs}`;
  }
  if (st.paused) line += ` · paused: ${st.paused}`;
  put(el.status, line);
  el.status.className = mine ? 'yours' : '';
  document.title = `${mine ? '● ' : ''}${page.seat} · grognard`;
}

function renderBoard() {
  if (!page.board) return;
  const tokens = tokensOf(page.state).filter((t) => t.onBoard);
  const legal = page.state.legal;
  const dests = [];
  const targets = new Map();
  if (page.selected) {
    legal.forEach((order, index) => {
      if (pieceOf(order) !== page.selected) return;
      const cell = cellOf(order);
      const point = pointOf(order);
      const label = `${page.selected}: ${describe(order)}`;
      if (cell && kindOf(order) !== 'save') dests.push({ id: index, cell, label, order });
      else if (point) dests.push({ id: index, point, label, order, cost: (page.state.costs || [])[index] || null });
      const t = targetOf(order);
      if (t) targets.set(t, [targets.get(t), actionOf(order)].filter(Boolean).join(' or '));
    });
  }
  page.board.draw({ tokens, dests, targets, selected: page.selected });
}

function orderButton({ order, index }, text) {
  return h(
    'button',
    {
      type: 'button',
      class: `order ${kindOf(order)}`,
      'data-order': JSON.stringify(order),
      'data-index': index,
      disabled: page.pending || null,
      onclick: () => send(order),
    },
    text ?? describe(order),
  );
}

function renderOrders() {
  const legal = page.state.legal;
  const groups = groupByPiece(legal);
  const end = legal.findIndex((o) => o.end_phase);
  el.endPhase.hidden = end < 0;
  el.endPhase.onclick = end < 0 ? null : () => send(legal[end]);
  // Undo only when the server says this seat may take back the last order; outside the
  // seat's own move that order is the one that handed the move over, so the button says so.
  const mine = page.state.status.to_act.includes(page.seat);
  // While the server's computer thinks and this seat waits for it, its orders are greyed.
  const thinking = mine ? [] : thinkingSides(page.state.status);
  const waiting = thinking.length > 0;
  el.orders.classList.toggle('waiting', waiting);
  el.endPhase.disabled = page.pending || waiting;
  el.undo.hidden = !page.state.can_undo;
  el.undo.disabled = page.pending || waiting;
  el.undo.textContent = mine || page.seat === 'referee' ? 'Undo' : 'Take back my last order';
  const blocks = [];
  for (const [piece, items] of groups) {
    const rest = items.filter(({ order }) => !order.end_phase);
    if (!rest.length) continue;
    blocks.push(
      h(
        'details',
        { class: 'group', 'data-piece': piece ?? '', open: piece === page.selected || null },
        h('summary', {}, piece ?? 'other', ` (${rest.length})`),
        h('div', { class: 'list' }, rest.map((x) => orderButton(x))),
      ),
    );
  }
  if (!blocks.length) {
    // Never a blank panel: one sentence for each reason there is nothing to list.
    const st = page.state.status;
    const why = st.over
      ? 'The game is over.'
      : page.state.hook_error
        ? `No orders: ${page.state.hook_error}`
        : waiting
          ? `No orders for you now: ${thinking.map(sideWords).join(' and ')} ${thinking.length > 1 ? 'are' : 'is'} thinking…`
          : end >= 0
            ? 'No piece has an order now: End phase when you are done.'
            : 'No orders for you now.';
    blocks.push(h('p', { class: 'quiet', id: 'no-orders' }, why));
  }
  put(el.orders, blocks);
}

/** A "details" disclosure holding the facts a player seldom needs (zero counters, bookkeeping flags). */
function moreFacts(more) {
  return more && more.length ? h('details', { class: 'more' }, h('summary', {}, `details (${more.length})`), h('p', { class: 'quiet' }, more.join(', '))) : null;
}

function renderSelected() {
  // A spectator gives no orders, and sees no piece until the game is over.
  const spectator = page.seat === 'spectator';
  el.selected.closest('section').hidden = spectator && !page.state.view;
  el.orders.closest('section').hidden = spectator;
  if (!page.selected) {
    put(el.selected, h('p', { class: 'quiet' }, spectator || page.state.status.over ? 'Select a piece (on the board or in the list) to see what is known of it.' : 'Select a piece (on the board or in the list) to see its orders.'));
    return;
  }
  const token = tokensOf(page.state).find((t) => t.key === page.selected);
  const items = [];
  if (token) {
    items.push(h('h3', {}, h('span', { class: 'swatch', style: null, 'data-side': token.side }, sideMark(token.side)), ' ', token.label || token.key));
    if (token.offWords) {
      // Not on the board: say where it is, not what it was.
      items.push(h('p', { class: 'off' }, `${token.key} — ${token.offWords}.`));
      put(el.selected, items);
      return;
    }
    items.push(h('p', {}, token.title));
    items.push(moreFacts(token.more));
  }
  const mine = [];
  page.state.legal.forEach((order, index) => {
    if (pieceOf(order) === page.selected) mine.push({ order, index });
  });
  if (page.choices) {
    items.push(h('p', {}, 'Which order?'));
    items.push(
      h(
        'div',
        { class: 'list' },
        page.choices.map((x) =>
          x.select
            ? h('button', { type: 'button', class: 'order select', onclick: () => select(x.select) }, `Select ${x.select}`)
            : orderButton(x),
        ),
      ),
    );
  } else if (mine.length) {
    items.push(h('div', { class: 'list' }, mine.map((x) => orderButton(x))));
  } else if (token && token.own) {
    items.push(h('p', { class: 'quiet' }, 'No orders for this piece now.'));
  }
  put(el.selected, items);
}

function renderPieces() {
  const tokens = tokensOf(page.state);
  const own = tokens.filter((t) => t.own || (page.state.view && page.state.view.views));
  const enemy = tokens.filter((t) => !t.own && !(page.state.view && page.state.view.views));
  const item = (t) =>
    h(
      'li',
      {},
      h(
        'button',
        { type: 'button', class: `piece-link${t.key === page.selected ? ' on' : ''}`, 'data-key': t.key, onclick: () => select(t.key) },
        h('span', { class: 'swatch', 'data-side': t.side }, sideMark(t.side)),
        ` ${t.key}`,
        t.onBoard ? '' : ` — ${t.offWords || 'off the board'}`,
      ),
      h('span', { class: 'quiet' }, ` ${t.title.slice(t.key.length + 2)}`),
      t.onBoard ? moreFacts(t.more) : null,
    );
  const parts = [];
  if (own.length) parts.push(h('h3', {}, page.state.view && page.state.view.views ? 'Every piece' : 'Your pieces'), h('ul', {}, own.map(item)));
  if (enemy.length) parts.push(h('h3', {}, 'Enemy pieces known'), h('ul', {}, enemy.map(item)));
  if (!parts.length) parts.push(h('p', { class: 'quiet' }, 'Pieces show here once the game lets this seat see them.'));
  put(el.pieces, parts);
}

/** The `log:` part of a seat's text, line by line, indents kept. */
function logLines(state) {
  const text = state.text || '';
  const at = text.indexOf('\nlog:\n');
  return at < 0 ? [] : text.slice(at + 6).split('\n').filter((l) => l.length);
}

/**
 * True for a line that only moves a counter (`b2 steps_moved 0 → 3`, `b2 fatigue (TE) hits 0 → 1`) or sets a bookkeeping
 * flag (`r1 is marked “shot_small_1”`, `b1 is in_melee`): kept, but folded under the event
 * it belongs to.
 */
function counterLine(line) {
  // A counter is logged by its name, or by the words the ruleset gives it (`called`:
  // `b2 fatigue (TE) hits 0 → 1`).
  const rules = (page.table && page.table.rules) || {};
  const names = new Set();
  for (const k of rules.counters || []) {
    names.add(k.name);
    if (k.called) names.add(k.called);
  }
  const c = /^(\S+) (.+) -?\d+ → -?\d+$/.exec(line);
  if (c && names.has(c[2])) return true;
  const f = /^(\S+) is (?:no longer )?(?:marked “(\S+)”|(\S+))$/.exec(line);
  return Boolean(f && !plainFlag(f[2] ?? f[3]));
}

/** A phase's header with whose turn it is and who acts in it. */
function headerWords(line) {
  const m = /^(turn \d+ · (.+) phase) \((.+)\)$/.exec(line);
  return m ? `${m[1]} · ${turnWords(m[2], m[3])}` : line;
}

/**
 * The ruleset's names that hold an underscore (flags, counters, actions, charts and their
 * outcomes, modes, piece types, terrain, features, phases): the log says them spaced, as
 * the editor does.
 */
function snakeNames() {
  const rules = (page.table && page.table.rules) || {};
  const names = new Set();
  const add = (list) => {
    for (const x of list || []) if (x && typeof x.name === 'string' && x.name.includes('_')) names.add(x.name);
  };
  for (const key of ['flags', 'counters', 'actions', 'charts', 'modes', 'piece_types', 'terrain', 'features']) add(rules[key]);
  // The charts' outcomes too, as the editor's log spaces them (`two moves`, `defender TE`).
  for (const c of rules.charts || []) for (const o of c.outcomes || []) if (typeof o === 'string' && o.includes('_')) names.add(o);
  const seq = rules.sequence || {};
  for (const v of [seq, ...(seq.variants || [])]) for (const part of ['turn_start', 'side_turn', 'turn_end']) add(v[part]);
  return names;
}

/** A log line with the ruleset's names spaced (`scout1 is fate rolled`); a piece's name, which orders spell, stays. */
function logWords(line, names) {
  return line.replace(/[A-Za-z0-9_]+/g, (w) => (names.has(w) ? spaced(w) : w));
}

function renderLog() {
  const entries = [];
  const names = snakeNames();
  for (const raw of logLines(page.state)) {
    const line = raw.trim();
    const said = logWords(line, names);
    // The phase is looked up by its own name, then said spaced.
    if (!raw.startsWith('  ')) entries.push({ kind: 'phase', text: logWords(headerWords(line), names), more: [] });
    else if (counterLine(line)) {
      const last = entries[entries.length - 1];
      if (last && last.kind === 'event') last.more.push(said);
      else entries.push({ kind: 'event', text: null, more: [said] });
    } else entries.push({ kind: 'event', text: said, more: [] });
  }
  const open = new Set([...el.log.querySelectorAll('details[open]')].map((d) => d.dataset.at));
  put(
    el.log,
    entries.map((e, i) =>
      h(
        'li',
        { class: e.kind },
        e.text,
        e.more.length
          ? h(
              'details',
              { class: 'more', 'data-at': i, open: open.has(String(i)) || null },
              h(
                'summary',
                { title: `${e.more.length} more: counters and flags this changed`, 'aria-label': `${e.more.length} more lines: counters and flags` },
                e.text === null ? `${e.more.length} counter and flag changes` : `+${e.more.length}`,
              ),
              h('ul', {}, e.more.map((l) => h('li', {}, l))),
            )
          : null,
      ),
    ),
  );
  el.log.scrollTop = el.log.scrollHeight;
}

function renderResult() {
  const st = page.state.status;
  if (!st.over) {
    el.result.hidden = true;
    return;
  }
  const r = st.result;
  const points = r ? Object.entries(r.points).map(([side, p]) => `${side} ${p}`).join(', ') : '';
  const who = !r ? '' : r.winner === null ? 'A draw.' : r.winner === page.seat ? 'You win.' : page.table && page.table.sides.includes(page.seat) ? 'You lose.' : '';
  // Why it ended is the headline (the rules' own words); the points come second.
  put(
    el.result,
    h('div', { class: 'card', role: 'dialog', 'aria-label': 'result' },
      h('h2', { class: 'why' }, r ? r.why : 'The game is over.'),
      who ? h('p', { class: 'who' }, who) : null,
      points ? h('p', { class: 'points quiet' }, `Points: ${points}`) : null,
      h('button', { type: 'button', onclick: () => { el.result.hidden = true; } }, 'Look at the board')),
  );
  el.result.hidden = false;
}

/**
 * The mode letters counters show, explained as the editor's legend says them
 * (`grognard_editor::words::mode_letters`): `F formed, L limbered or line`.
 */
export function modeLetters(rules) {
  const byLetter = new Map();
  for (const m of (rules && rules.modes) || []) {
    const name = spaced(m.name);
    const c = name.charAt(0).toUpperCase();
    if (!c) continue;
    if (!byLetter.has(c)) byLetter.set(c, []);
    byLetter.get(c).push(name);
  }
  return [...byLetter.keys()]
    .sort()
    .map((c) => `${c} ${byLetter.get(c).join(' or ')}`)
    .join(', ');
}

function renderLegend() {
  if (!page.table) return;
  const letters = modeLetters(page.table.rules);
  put(
    el.legend,
    page.table.sides.map((name, i) =>
      h('span', { class: 'legend-side', 'data-side-name': name }, h('span', { class: 'swatch', 'data-side': i }, sideMark(i)), ` ${sideWords(name)}`),
    ),
    letters ? h('span', { class: 'legend-modes quiet', id: 'mode-letters' }, ` · mode letters on counters: ${letters}`) : null,
  );
}

/**
 * Why the server's searching player gave its last order: the orders it weighed most, each
 * with its visits and mean score, folded under one line. The server sends it only to that
 * side's own seat and to the referee.
 */
function renderThinking() {
  const all = page.state.thinking || [];
  el.thinking.hidden = all.length === 0;
  if (!all.length) return;
  const when = (t) => `turn ${t.turn}${t.phase ? ` · ${t.phase} phase` : ''}`;
  const mean = (m) => (typeof m === 'number' ? (m >= 0 ? '+' : '') + m.toFixed(3) : '?');
  const first = all[0];
  put(
    el.thinking.querySelector('summary'),
    all.length === 1
      ? `Why ${sideWords(first.side)} chose its last order (${when(first)}): ${((first.search || {}).considered || []).length} orders weighed in ${(first.search || {}).iterations ?? '?'} imagined games`
      : `Why the computer chose its last orders: ${all.map((t) => t.side).join(', ')}`,
  );
  put(
    el.thinking.querySelector('ol'),
    all.flatMap((t) => [
      all.length > 1 ? h('li', { class: 'side' }, `${t.side}, ${when(t)}:`) : null,
      ...((t.search || {}).considered || []).map((c, i) =>
        h(
          'li',
          { class: i === 0 ? 'given' : null, 'data-side-name': t.side },
          `${describeWhole(c.order || {})} — ${c.visits} visits, mean ${mean(c.mean)}${i === 0 ? ' (given)' : ''}`,
        ),
      ),
    ]),
  );
}

function render() {
  if (!page.state) return;
  renderStatus();
  renderThinking();
  renderBoard();
  renderSelected();
  renderOrders();
  renderPieces();
  renderLog();
  renderResult();
}

// ---- acting ----

function send(order) {
  if (page.pending) return;
  if (!live.send({ type: 'order', order })) {
    say('Not connected: the order was not sent. Reconnecting…', 'error', 'conn');
    return;
  }
  page.pending = true;
  page.choices = null;
  say(`Sent: ${describeWhole(order)}`);
  renderOrders();
  renderSelected();
}

function select(key, keyboard = false) {
  page.selected = page.selected === key ? null : key;
  page.choices = null;
  renderBoard();
  renderSelected();
  renderOrders();
  renderPieces();
  // By keyboard the board is drawn anew under the focus: put it on the piece's first
  // destination or target, so the next Tab goes on from there, not back to the first piece.
  if (keyboard) {
    const next =
      (page.selected && el.svg.querySelector('.dest, g.piece.target')) ||
      el.svg.querySelector(`g.piece[data-key="${CSS.escape(key)}"]`);
    if (next) next.focus();
  }
}

function clickPiece(key, keyboard = false) {
  // A piece the selected one may act on: the order (or the choice of orders) at it. A click
  // on one of the seat's own pieces may as well mean "select it": then the choice is offered
  // with selecting it first, never an order given at once.
  if (page.selected && page.selected !== key) {
    const at = [];
    page.state.legal.forEach((order, index) => {
      if (pieceOf(order) === page.selected && targetOf(order) === key) at.push({ order, index });
    });
    const own = tokensOf(page.state).some((t) => t.key === key && t.own);
    if (at.length === 1 && !own) return send(at[0].order);
    if (at.length) {
      page.choices = own ? [{ select: key }, ...at] : at;
      renderSelected();
      return;
    }
  }
  select(key, keyboard);
}

function clickDest(dest) {
  const same = [];
  page.state.legal.forEach((order, index) => {
    if (pieceOf(order) !== page.selected) return;
    const c = cellOf(order);
    const p = pointOf(order);
    if ((dest.cell && c && c.col === dest.cell.col && c.row === dest.cell.row && kindOf(order) !== 'save') || (dest.point && p && p[0] === dest.point[0] && p[1] === dest.point[1])) {
      same.push({ order, index });
    }
  });
  if (same.length === 1) send(same[0].order);
  else if (same.length > 1) {
    page.choices = same;
    renderSelected();
  }
}

// ---- the connection ----

function onMessage(m) {
  switch (m.type) {
    case 'welcome':
      page.seat = m.seat;
      page.table = m.table;
      document.body.dataset.seat = m.seat;
      // A side the server plays: its link shows what the computer does, and may undo it.
      put(el.seat, m.seat === 'referee' ? 'referee' : m.seat === 'spectator' ? 'spectator' : computerOf(m.seat) ? `seat of ${sideWords(m.seat)}` : `playing ${m.seat}`);
      if (!page.board) {
        page.board = new Board(el.svg, m.table, {
          piece: clickPiece,
          dest: clickDest,
          drop: (d) => send(d.order),
          dragging: (label) => (label ? say(label, 'info', 'drag') : unsay('drag')),
        });
        renderLegend();
      }
      // Connected again: what was not sent for want of a connection is no longer the news.
      unsay('conn');
      loadChat();
      break;
    case 'state':
      page.state = m;
      page.pending = false;
      // A new state answers the order sent (or follows another seat's): the last message is old.
      unsay('order', 'drag', 'conn');
      if (page.selected && !tokensOf(m).some((t) => t.key === page.selected)) page.selected = null;
      // A selection does not outlive its phase: a click in the next one means what it shows.
      const phase = m.status && `${m.status.turn}/${m.status.phase}`;
      if (page.phase && phase !== page.phase) page.selected = null;
      page.phase = phase;
      page.choices = null;
      render();
      break;
    case 'refused':
      page.pending = false;
      say(m.message, 'error');
      render();
      break;
    case 'error':
      page.pending = false;
      say(m.message, 'error');
      if (page.state) render();
      break;
    case 'chat':
      addChat(m);
      break;
    default:
      break;
  }
}

let countdown = null;

function onStatus(what, wait) {
  document.body.dataset.conn = what;
  clearInterval(countdown);
  countdown = null;
  if (what === 'live') {
    put(el.conn, 'live');
    unsay('conn');
  } else if (what === 'connecting') put(el.conn, 'connecting…');
  else if (what === 'refused') put(el.conn, 'not connected');
  else {
    // The wait counts down each second, to the try it announces.
    const until = Date.now() + wait;
    const tick = () => put(el.conn, `connection lost: reconnecting in ${Math.max(0, Math.ceil((until - Date.now()) / 1000))} s`);
    tick();
    if (wait > 0) countdown = setInterval(tick, 250);
  }
  el.conn.className = what;
}

async function loadChat() {
  try {
    const { lines } = await api(`/games/${encodeURIComponent(game)}/chat`, token);
    for (const l of lines) addChat(l);
  } catch (e) {
    say(`Chat: ${e.message}`, 'error', 'conn');
  }
}

function addChat(line) {
  if (page.chat.has(line.seq)) return;
  page.chat.set(line.seq, line);
  const sorted = [...page.chat.values()].sort((a, b) => a.seq - b.seq);
  put(
    el.chatLines,
    sorted.map((l) => h('li', { class: l.seat === 'server' ? 'server' : '' }, h('b', {}, l.seat), ' ', l.text)),
  );
  el.chatLines.scrollTop = el.chatLines.scrollHeight;
}

el.chatForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = el.chatText.value.trim();
  if (!text) return;
  if (live.send({ type: 'chat', text })) el.chatText.value = '';
  else say('Not connected: the line was not sent.', 'error', 'conn');
});

el.undo.addEventListener('click', () => {
  const message = { type: 'undo' };
  if (page.seat === 'referee') {
    const reason = window.prompt('Why take the last order back? (every seat sees this)');
    if (!reason) return;
    message.reason = reason;
  }
  if (live.send(message)) page.pending = true;
});

byId('zoom-in').addEventListener('click', () => page.board && page.board.zoom(1.25));
byId('zoom-out').addEventListener('click', () => page.board && page.board.zoom(0.8));
byId('fit').addEventListener('click', () => page.board && page.board.fit());
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && page.selected && e.target.tagName !== 'INPUT') select(page.selected);
});

// Another seat's link opened in this tab changes only the fragment, which loads no page:
// start again as that seat.
window.addEventListener('hashchange', () => location.reload());

put(el.title, `game ${game}`);
const live = new Live(game, token, { onMessage, onStatus });
if (!token) {
  say('This link has no seat token (#token=…): ask the host for your link.', 'error', 'token');
  onStatus('reconnecting', 0);
} else {
  live.start();
}
