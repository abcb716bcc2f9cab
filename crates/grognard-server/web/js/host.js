// The host page (`/host`): creates a game with the host token — from a scenario the
// server offers (`GET /scenarios`) or from the host's own files — with its options, the
// sides the server plays and an optional seed, then shows one link per seat.

import { h, put, byId, fragmentToken } from './dom.js';
import { api } from './net.js';

const el = {
  token: byId('host-token'),
  bundled: byId('bundled'),
  about: byId('bundled-about'),
  load: byId('load-list'),
  upload: byId('upload'),
  upChoice: byId('upload-choice'),
  upScenario: byId('up-scenario'),
  upRuleset: byId('up-ruleset'),
  options: byId('options'),
  optionsText: byId('options-text'),
  players: byId('players'),
  seed: byId('seed'),
  form: byId('host-form'),
  message: byId('message'),
  links: byId('links'),
  list: byId('link-list'),
};

let offered = [];
let uploaded = null; // {files: {path: text}}

el.token.value = fragmentToken();

function say(text, error = false) {
  el.message.textContent = text;
  el.message.className = error ? 'error' : '';
}

/** A failed request in the host's words: a refused host token says which one is wrong. */
function failed(err) {
  if (err.status === 401 || err.status === 403) {
    say(
      el.token.value.trim()
        ? "That host token is not this server's (it may have restarted without --host-token-file, which keeps one token across restarts): use the one grognard serve printed last."
        : 'This server asks for its host token: paste the one grognard serve printed.',
      true,
    );
  } else {
    say(err.message, true);
  }
}

async function loadList() {
  try {
    const { scenarios } = await api('/scenarios', el.token.value.trim());
    offered = scenarios;
    put(
      el.bundled,
      h('option', { value: '' }, scenarios.length ? '(choose)' : '(the server offers none)'),
      scenarios.map((s) => h('option', { value: s.name }, s.name)),
    );
    say(scenarios.length ? `${scenarios.length} scenarios.` : 'The server offers no scenarios: upload your own.');
  } catch (e) {
    failed(e);
  }
}

function choose(sides, options) {
  put(
    el.options,
    Object.keys(options).length
      ? Object.entries(options).map(([name, on]) =>
          h('label', { class: 'check' }, h('input', { type: 'checkbox', 'data-option': name, checked: on || null }), ` ${name.replaceAll('_', ' ')}`),
        )
      : h('p', { class: 'quiet' }, 'This ruleset has no optional rules.'),
  );
  put(
    el.players,
    sides.map((side) =>
      h(
        'label',
        {},
        `${side}: `,
        h(
          'select',
          { 'data-side': side },
          h('option', { value: '' }, 'a player (a link)'),
          h('option', { value: 'greedy' }, 'the server (greedy)'),
          h('option', { value: 'random' }, 'the server (random)'),
          h('option', { value: 'search' }, 'the server (search, 1 s an order)'),
        ),
      ),
    ),
  );
}

el.load.addEventListener('click', loadList);
el.bundled.addEventListener('change', () => {
  const s = offered.find((x) => x.name === el.bundled.value);
  uploaded = null;
  el.upChoice.hidden = true;
  if (!s) return;
  put(el.about, s.description || '');
  choose(s.sides, s.options);
});

// Uploaded files keep their paths inside the chosen folder, as the scenario names them
// (`ruleset: x` is `../rulesets/x.yaml` from `examples/`).
el.upload.addEventListener('change', async () => {
  const files = {};
  for (const f of el.upload.files) {
    const rel = (f.webkitRelativePath || f.name).split('/');
    if (rel.length > 1) rel.shift();
    const path = rel.join('/');
    if (!/\.(ya?ml|lua)$/i.test(path) || path.split('/').some((p) => p.startsWith('.'))) continue;
    files[path] = await f.text();
  }
  const yaml = Object.keys(files).filter((p) => /\.ya?ml$/i.test(p));
  const scenarios = yaml.filter((p) => /^\s*scenario\s*:/m.test(files[p]));
  const rulesets = yaml.filter((p) => /^\s*ruleset\s*:/m.test(files[p]) && !/^\s*scenario\s*:/m.test(files[p]));
  uploaded = { files };
  el.bundled.value = '';
  put(el.upScenario, scenarios.map((p) => h('option', { value: p }, p)));
  put(el.upRuleset, rulesets.map((p) => h('option', { value: p }, p)));
  el.upChoice.hidden = false;
  guessRuleset();
  const sides = sidesOf(files[el.upScenario.value] || '');
  choose(sides, optionsOf(el.upRuleset.value));
  say(`${Object.keys(files).length} files read (YAML and Lua only).`);
});

function guessRuleset() {
  const text = uploaded && uploaded.files[el.upScenario.value];
  const m = text && /^ruleset\s*:\s*["']?([\w.-]+)/m.exec(text);
  if (!m) return;
  const hit = [...el.upRuleset.options].find((o) => o.value.endsWith(`/${m[1]}.yaml`) || o.value === `${m[1]}.yaml`);
  if (hit) el.upRuleset.value = hit.value;
}

/**
 * The optional rules of an uploaded ruleset and the layers it `extends:` among the uploaded
 * files, read roughly from their `options:` blocks (a hint for the form: the server checks
 * the names), each with its `default:`.
 */
function optionsOf(path, seen = new Set()) {
  const text = uploaded && uploaded.files[path];
  if (!text || seen.has(path)) return {};
  seen.add(path);
  const found = {};
  const base = /^extends\s*:\s*["']?([\w.\/-]+)/m.exec(text);
  if (base) {
    const name = base[1].replace(/\.ya?ml$/, '').split('/').pop();
    const hit = Object.keys(uploaded.files).find((p) => p.endsWith(`/${name}.yaml`) || p === `${name}.yaml`);
    if (hit) Object.assign(found, optionsOf(hit, seen));
  }
  const m = /^options\s*:\s*\n((?:(?:[ \t]+.*)?\n?)+)/m.exec(text);
  if (m) {
    for (const line of m[1].split('\n')) {
      const x = /^ {2}(\w[\w-]*)\s*:(.*)$/.exec(line);
      if (x) found[x[1]] = /default\s*:\s*(true|on)\b/.test(x[2]);
    }
  }
  return found;
}

/** The side names of a scenario's `sides:` block, read roughly (a hint for the form). */
function sidesOf(text) {
  const m = /^sides\s*:\s*\n((?:[ \t]+.*\n?)+)/m.exec(text);
  if (!m) return [];
  const names = [];
  for (const line of m[1].split('\n')) {
    const x = /^ {2}(\w[\w-]*)\s*:/.exec(line);
    if (x) names.push(x[1]);
  }
  return names;
}

el.upScenario.addEventListener('change', () => {
  guessRuleset();
  choose(sidesOf(uploaded.files[el.upScenario.value] || ''), optionsOf(el.upRuleset.value));
});
el.upRuleset.addEventListener('change', () => {
  choose(sidesOf(uploaded.files[el.upScenario.value] || ''), optionsOf(el.upRuleset.value));
});

el.form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const token = el.token.value.trim();
  let request;
  try {
    if (uploaded) {
      request = { scenario: el.upScenario.value, ruleset: el.upRuleset.value, files: uploaded.files };
    } else if (el.bundled.value) {
      request = await api(`/scenarios/${encodeURIComponent(el.bundled.value)}`, token);
    } else {
      say('Choose a scenario, or upload one.', true);
      return;
    }
  } catch (err) {
    failed(err);
    return;
  }
  const options = {};
  for (const box of el.options.querySelectorAll('input[data-option]')) options[box.dataset.option] = box.checked;
  for (const part of el.optionsText.value.split(',').map((x) => x.trim()).filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!name || !/^(on|off|true|false)$/.test(value || '')) {
      say(`Options are NAME=on or NAME=off: \`${part}\``, true);
      return;
    }
    options[name.trim()] = value === 'on' || value === 'true';
  }
  const policies = {};
  for (const sel of el.players.querySelectorAll('select[data-side]')) if (sel.value) policies[sel.dataset.side] = sel.value;
  request = { ...request, options, policies };
  const seed = el.seed.value.trim();
  if (seed) {
    if (!/^\d+$/.test(seed)) {
      say('The seed is a whole number.', true);
      return;
    }
    request.seed = Number(seed);
  } else {
    delete request.seed;
  }
  say('Creating…');
  try {
    const created = await api('/games', token, { method: 'POST', body: request });
    say(`Game ${created.game} created.`);
    showLinks(created, policies);
  } catch (err) {
    failed(err);
  }
});

function showLinks(created, policies) {
  const base = `${location.origin}/play/${encodeURIComponent(created.game)}#token=`;
  const seats = Object.entries(created.tokens).filter(([seat]) => !policies[seat]);
  put(
    el.list,
    seats.map(([seat, tok]) => {
      const link = base + tok;
      const field = h('input', { readonly: true, value: link, size: 60, 'aria-label': `${seat}'s link`, 'data-seat': seat });
      return h(
        'li',
        {},
        h('b', {}, seat),
        ' ',
        field,
        ' ',
        h('button', {
          type: 'button',
          onclick: async () => {
            field.select();
            try {
              await navigator.clipboard.writeText(link);
              say(`${seat}'s link copied.`);
            } catch {
              say(`${seat}'s link is selected: copy it (Ctrl-C).`);
            }
          },
        }, 'Copy'),
        ' ',
        h('a', { href: link, target: '_blank', rel: 'noopener' }, 'Open'),
      );
    }),
  );
  el.links.hidden = false;
  // The links are what the host came for: bring them into sight, the first Copy at hand.
  el.links.scrollIntoView({ block: 'start' });
  const first = el.list.querySelector('button');
  if (first) first.focus();
}

if (el.token.value || location.hash === '') loadList();
