// The play page (`/play/{game}#token=...`): one seat of one game, live over the game's
// WebSocket. Everything it shows comes from what the server sends this seat — the table
// (board and rules, public), the seat's state (its view, text, legal orders) and the
// chat — and every order it sends is an item of the seat's `legal` list.

import { h, put, byId, fragmentToken } from './dom.js';
import { api, Live } from './net.js';
import { Board, sideColour, sideMark } from './board.js';
import { groupByPiece, describe, cellOf, pointOf, targetOf, pieceOf, kindOf } from './orders.js';

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
};

function say(text, kind = 'info') {
  el.message.textContent = text;
  el.message.className = kind;
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

function describeNames(name, n) {
  const parts = [`${name}: ${n.kind}`, `${n.mode}`, `facing ${n.facing}`];
  const counters = Object.entries(n.counters).map(([k, v]) => `${k} ${v}`);
  if (counters.length) parts.push(counters.join(', '));
  if (n.flags.length) parts.push(n.flags.join(', '));
  return parts.join(' · ');
}

/** The pieces this seat may see, as tokens: own in full, enemies as known. */
function tokensOf(state) {
  const tokens = [];
  const v = state.view;
  if (!v) return tokens;
  const views = v.views ? v.views : v.view ? [v.view] : [];
  const referee = Boolean(v.views);
  for (const view of views) {
    view.own.forEach((p, i) => {
      const n = view.own_names[i];
      const where = placeParts(p.place);
      tokens.push({
        key: p.name,
        label: p.name,
        title: describeNames(p.name, n),
        names: n,
        side: p.side,
        own: !referee,
        onBoard: Boolean(where),
        ...(where || {}),
        degrees: degreesOf(p.place, p.facing),
        base: n.base,
      });
    });
    if (referee) continue;
    for (const e of view.enemy) {
      const name = e.identity ? e.identity.name : `#${e.handle}`;
      const known = e.kind || e.identity;
      const here = placeParts(e.place);
      const stale = !here && e.last_seen ? placeParts(e.last_seen.place) : null;
      const bits = [name];
      if (e.kind) bits.push(e.kind);
      if (e.real === false) bits.push('a dummy');
      if (e.level) bits.push(`sighting ${e.level}`);
      if (e.strength !== null && e.strength !== undefined) bits.push(`strength ${e.strength}`);
      if (e.facing_name) bits.push(`facing ${e.facing_name}`);
      if (stale) bits.push(`last seen turn ${e.last_seen.turn}`);
      if (!known) bits.push('unidentified');
      tokens.push({
        key: name,
        label: e.identity ? e.identity.name : e.kind || '',
        title: bits.join(' · '),
        names: e.names,
        side: e.side,
        own: false,
        blank: !known,
        stale: Boolean(stale),
        onBoard: Boolean(here || stale),
        ...(here || stale || {}),
        degrees: degreesOf(e.place || (e.last_seen && e.last_seen.place), e.facing ?? (e.last_seen && e.last_seen.facing)),
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

function renderStatus() {
  const st = page.state.status;
  const mine = page.table && page.table.sides.includes(page.seat) && st.to_act.includes(page.seat);
  document.body.dataset.orders = String(st.orders);
  document.body.dataset.turn = mine ? 'yours' : 'theirs';
  let line;
  if (st.over) line = `Game over: ${st.result ? st.result.why : 'no result'}`;
  else {
    const who = st.to_act.length ? st.to_act.join(' and ') : 'nobody';
    line = `Turn ${st.turn} · ${st.phase} phase · ${mine ? 'your move' : `${who} to act`}`;
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
  const targets = new Set();
  if (page.selected) {
    legal.forEach((order, index) => {
      if (pieceOf(order) !== page.selected) return;
      const cell = cellOf(order);
      const point = pointOf(order);
      const label = `${page.selected}: ${describe(order)}`;
      if (cell && kindOf(order) !== 'save') dests.push({ id: index, cell, label, order });
      else if (point) dests.push({ id: index, point, label, order });
      const t = targetOf(order);
      if (t) targets.add(t);
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
  el.endPhase.disabled = page.pending;
  el.endPhase.onclick = end < 0 ? null : () => send(legal[end]);
  el.undo.hidden = !page.state.can_undo;
  el.undo.disabled = page.pending;
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
  if (!legal.length) {
    const st = page.state.status;
    blocks.push(h('p', { class: 'quiet' }, st.over ? 'The game is over.' : page.state.hook_error ? `No orders: ${page.state.hook_error}` : 'No orders for you now.'));
  }
  put(el.orders, blocks);
}

function renderSelected() {
  if (!page.selected) {
    put(el.selected, h('p', { class: 'quiet' }, 'Select a piece (on the board or in the list) to see its orders.'));
    return;
  }
  const token = tokensOf(page.state).find((t) => t.key === page.selected);
  const items = [];
  if (token) {
    items.push(h('h3', {}, h('span', { class: 'swatch', style: null, 'data-side': token.side }, sideMark(token.side)), ' ', token.label || token.key));
    items.push(h('p', {}, token.title));
  }
  const mine = [];
  page.state.legal.forEach((order, index) => {
    if (pieceOf(order) === page.selected) mine.push({ order, index });
  });
  if (page.choices) {
    items.push(h('p', {}, 'Which order?'));
    items.push(h('div', { class: 'list' }, page.choices.map((x) => orderButton(x))));
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
        t.onBoard ? '' : ' (off the board)',
      ),
      h('span', { class: 'quiet' }, ` ${t.title.slice(t.key.length + 2)}`),
    );
  const parts = [];
  if (own.length) parts.push(h('h3', {}, page.state.view && page.state.view.views ? 'Every piece' : 'Your pieces'), h('ul', {}, own.map(item)));
  if (enemy.length) parts.push(h('h3', {}, 'Enemy pieces known'), h('ul', {}, enemy.map(item)));
  if (!parts.length) parts.push(h('p', { class: 'quiet' }, 'Pieces show here once the game lets this seat see them.'));
  put(el.pieces, parts);
}

function renderLog() {
  const text = page.state.text || '';
  const at = text.indexOf('\nlog:\n');
  const lines = at < 0 ? [] : text.slice(at + 6).split('\n').filter((l) => l.length);
  put(
    el.log,
    lines.map((l) => h('li', { class: l.startsWith('  ') ? 'event' : 'phase' }, l.trim())),
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
  const points = r ? Object.entries(r.points).map(([side, p]) => h('li', {}, `${side}: ${p}`)) : [];
  const headline = !r ? 'The game is over.' : r.winner === null ? 'A draw.' : r.winner === page.seat ? 'You win.' : `${r.winner} wins.`;
  put(
    el.result,
    h('div', { class: 'card', role: 'dialog', 'aria-label': 'result' },
      h('h2', {}, headline),
      h('p', {}, r ? r.why : ''),
      h('ul', {}, points),
      h('button', { type: 'button', onclick: () => { el.result.hidden = true; } }, 'Look at the board')),
  );
  el.result.hidden = false;
}

function renderLegend() {
  if (!page.table) return;
  put(
    el.legend,
    page.table.sides.map((name, i) =>
      h('span', { class: 'legend-side' }, h('span', { class: 'swatch', 'data-side': i }, sideMark(i)), ` ${name}`),
    ),
  );
}

function render() {
  if (!page.state) return;
  renderStatus();
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
    say('Not connected: the order was not sent. Reconnecting…', 'error');
    return;
  }
  page.pending = true;
  page.choices = null;
  say(`Sent: ${describe(order)}`);
  renderOrders();
  renderSelected();
}

function select(key) {
  page.selected = page.selected === key ? null : key;
  page.choices = null;
  renderBoard();
  renderSelected();
  renderOrders();
  renderPieces();
}

function clickPiece(key) {
  // A piece the selected one may act on: the order (or the choice of orders) at it.
  if (page.selected && page.selected !== key) {
    const at = [];
    page.state.legal.forEach((order, index) => {
      if (pieceOf(order) === page.selected && targetOf(order) === key) at.push({ order, index });
    });
    if (at.length === 1) return send(at[0].order);
    if (at.length > 1) {
      page.choices = at;
      renderSelected();
      return;
    }
  }
  select(key);
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
      put(el.seat, m.seat === 'referee' ? 'referee' : m.seat === 'spectator' ? 'spectator' : `playing ${m.seat}`);
      if (!page.board) {
        page.board = new Board(el.svg, m.table, {
          piece: clickPiece,
          dest: clickDest,
          drop: (d) => send(d.order),
          dragging: (label) => say(label),
        });
        renderLegend();
      }
      loadChat();
      break;
    case 'state':
      page.state = m;
      page.pending = false;
      if (page.selected && !tokensOf(m).some((t) => t.key === page.selected)) page.selected = null;
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

function onStatus(what, wait) {
  document.body.dataset.conn = what;
  if (what === 'live') put(el.conn, 'live');
  else if (what === 'connecting') put(el.conn, 'connecting…');
  else if (what === 'refused') put(el.conn, 'not connected');
  else put(el.conn, `connection lost: reconnecting in ${Math.round(wait / 1000)} s`);
  el.conn.className = what;
}

async function loadChat() {
  try {
    const { lines } = await api(`/games/${encodeURIComponent(game)}/chat`, token);
    for (const l of lines) addChat(l);
  } catch (e) {
    say(`Chat: ${e.message}`, 'error');
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
  else say('Not connected: the line was not sent.', 'error');
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
  say('This link has no seat token (#token=…): ask the host for your link.', 'error');
  onStatus('reconnecting', 0);
} else {
  live.start();
}
