//! A small Hex Command field played through the binary: the fixture every Hex Command test
//! module in this folder shares.

use crate::util::{Played, Run, grognard_in, play_json_in, root};

const RULESET: &str = "rulesets/hex-command.yaml";

/// A scenario and its overlay in a temporary folder.
pub struct Field {
    pub dir: tempfile::TempDir,
}

/// A 10×8 field under Hex Command with Blue always first (the overlay drops the initiative
/// roll). `map` rows override the all-clear board (legend: `.` clear, `F` forest, `h` hill,
/// `B` buildings, `L` lake, `T` fort); `features` and `pieces` are YAML list entries,
/// `extra` further scenario keys (options, settings).
pub fn field(map: Option<&str>, features: &str, pieces: &str, extra: &str, turns: u32) -> Field {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("hc.yaml"),
        format!(
            "ruleset: hc-test\nextends: {}\nremove: [sequence.initiative]\n",
            root().join(RULESET).display()
        ),
    )
    .expect("write overlay");
    let map = map.map_or_else(|| ". . . . . . . . . .\n".repeat(8), str::to_owned);
    let map: String = map.lines().map(|l| format!("    {}\n", l.trim())).collect();
    let features = if features.is_empty() {
        String::new()
    } else {
        format!("  features:\n{features}")
    };
    std::fs::write(
        dir.path().join("field.yaml"),
        format!(
            "scenario: field\nruleset: ./hc.yaml\nseed: 1\nturns: {turns}\n{extra}\nboard:\n  cols: 10\n  rows: 8\n  legend: {{ \".\": clear, F: forest, h: hill, B: buildings, L: lake, T: fort }}\n  map: |\n{map}{features}sides:\n  blue: {{}}\n  red: {{}}\npieces:\n{pieces}"
        ),
    )
    .expect("write scenario");
    Field { dir }
}

impl Field {
    /// Writes `orders` (one YAML flow mapping each) as an orders file named `file`.
    pub fn write_orders(&self, file: &str, orders: &[impl AsRef<str>]) {
        let text: String = std::iter::once("orders:\n".to_owned())
            .chain(orders.iter().map(|o| format!("  - {}\n", o.as_ref())))
            .collect();
        std::fs::write(self.dir.path().join(file), text).expect("write orders");
    }

    /// Plays `orders` with extra command-line arguments.
    pub fn play(&self, orders: &[impl AsRef<str>], args: &[&str]) -> Run {
        self.write_orders("orders.yaml", orders);
        let mut all = vec!["play", "field.yaml", "--orders", "orders.yaml"];
        all.extend_from_slice(args);
        grognard_in(self.dir.path(), &all)
    }

    /// `orders` played with `--json`: the events, for tests that check a rule's outcome
    /// rather than the words the log prints for it. All must be accepted.
    pub fn json(&self, orders: &[impl AsRef<str>], args: &[&str]) -> Played {
        self.write_orders("orders.yaml", orders);
        let played = play_json_in(self.dir.path(), "field.yaml", "orders.yaml", args);
        assert_eq!(played.code, 0, "refused: {:?}", played.refused);
        played
    }

    /// The log of `orders`, which must all be accepted.
    pub fn ok(&self, orders: &[impl AsRef<str>], args: &[&str]) -> String {
        let r = self.play(orders, args);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        r.stdout
    }

    /// Asserts that `orders` stop with a refusal saying `why`.
    pub fn refused(&self, orders: &[impl AsRef<str>], args: &[&str], why: &str) {
        let r = self.play(orders, args);
        assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains(why),
            "expected `{why}` in: {}{}",
            r.stdout,
            r.stderr
        );
    }
}

/// `n` end_phase orders for `side`.
pub fn ends(side: &str, n: usize) -> Vec<String> {
    vec![format!("{{ side: {side}, end_phase: true }}"); n]
}

/// One order of `side`: `what` is the rest of the flow mapping.
pub fn order(side: &str, what: &str) -> String {
    format!("{{ side: {side}, {what} }}")
}

/// `base` followed by `more`.
pub fn with(mut base: Vec<String>, more: &[String]) -> Vec<String> {
    base.extend_from_slice(more);
    base
}

pub fn has(out: &str, line: &str) {
    assert!(out.contains(line), "expected `{line}` in:\n{out}");
}

/// Whether `piece`'s counter `counter` went from `from` to `to` in the events, or with
/// `None` changed at all: a rule's hit, fatigue or supply read on `--json`.
pub fn counted(p: &Played, piece: &str, counter: &str, change: Option<(i64, i64)>) -> bool {
    p.has("counter_changed", piece, |e| {
        e["counter"] == counter
            && change.is_none_or(|(from, to)| e["from"] == from && e["to"] == to)
    })
}

/// A check of the words only (mark its call `// prose:`): `line` is not in `out`, beside
/// `present`, a line that must be there. A rewording makes `present` fail loudly rather than
/// letting the absence pass silently. A rule's outcome is checked on `--json` instead.
pub fn lacks(out: &str, present: &str, line: &str) {
    assert!(out.contains(present), "expected `{present}` in:\n{out}");
    assert!(!out.contains(line), "did not expect `{line}` in:\n{out}");
}

/// The events about piece `name`, one a line: what a failed check below prints.
fn about(p: &Played, name: &str) -> String {
    let piece = p.piece(name);
    (p.events.iter())
        .filter(|e| e["piece"] == piece || e["roll"]["by"] == piece)
        .map(|e| format!("  {e}\n"))
        .collect()
}

/// Asserts that `piece`'s counter `counter` went from `from` to `to` in the events.
#[track_caller]
pub fn assert_counted(p: &Played, piece: &str, counter: &str, from: i64, to: i64) {
    assert!(
        counted(p, piece, counter, Some((from, to))),
        "expected {piece} {counter} {from} → {to}; the events of {piece}:\n{}",
        about(p, piece)
    );
}

/// Asserts that `piece` was placed (not moved) from `from` to `to` for `reason`.
#[track_caller]
pub fn assert_placed(p: &Played, piece: &str, from: (i64, i64), to: (i64, i64), reason: &str) {
    let cell = |(col, row): (i64, i64)| serde_json::json!({"col": col, "row": row});
    assert!(
        p.has("placed", piece, |e| e["from"] == cell(from)
            && e["to"] == cell(to)
            && e["reason"] == reason),
        "expected {piece} placed {from:?} → {to:?} ({reason}); the events of {piece}:\n{}",
        about(p, piece)
    );
}

/// Asserts that `piece` was removed for `reason` (the event's reason, exactly).
#[track_caller]
pub fn assert_removed(p: &Played, piece: &str, reason: &str) {
    assert!(
        p.has("removed", piece, |e| e["reason"] == reason),
        "expected {piece} removed ({reason}); the events of {piece}:\n{}",
        about(p, piece)
    );
}

/// Asserts that the events turn `flag` on (`on`) or off for `piece`.
#[track_caller]
pub fn assert_flag(p: &Played, piece: &str, flag: &str, on: bool) {
    assert!(
        p.flag(piece, flag, on).is_some(),
        "expected {piece}'s flag {flag} turned {}; the events of {piece}:\n{}",
        if on { "on" } else { "off" },
        about(p, piece)
    );
}

/// Asserts that `piece` was attached to `to` (`None`: detached) in the events.
#[track_caller]
pub fn assert_attached(p: &Played, piece: &str, to: Option<&str>) {
    let to = to.map_or(serde_json::Value::Null, |t| p.piece(t).into());
    assert!(
        p.has("attached", piece, |e| e["to"] == to),
        "expected {piece} attached to {to}; the events of {piece}:\n{}",
        about(p, piece)
    );
}

/// The first roll on `chart` in the events (its record: band, dice, inputs, outcome).
#[track_caller]
pub fn roll_on<'a>(p: &'a Played, chart: &str) -> &'a serde_json::Value {
    (p.events.iter())
        .map(|e| &e["roll"])
        .find(|r| r["chart"] == chart)
        .unwrap_or_else(|| panic!("no roll on {chart} in {:?}", p.events))
}

/// A roll's modifiers as `(name, value)`, in the order the roll applied them.
pub fn modifiers(roll: &serde_json::Value) -> Vec<(String, i64)> {
    (roll["modifiers"].as_array().into_iter().flatten())
        .map(|m| {
            let name = m["name"].as_str().unwrap_or_default().to_owned();
            (name, m["value"].as_i64().unwrap_or_default())
        })
        .collect()
}

/// The value `piece`'s counter `counter` was last set to in the events (`None`: never
/// changed).
pub fn last_value(p: &Played, piece: &str, counter: &str) -> Option<i64> {
    let piece = p.piece(piece);
    (p.events.iter().rev())
        .find(|e| e["event"] == "counter_changed" && e["piece"] == piece && e["counter"] == counter)
        .and_then(|e| e["to"].as_i64())
}

/// Asserts that `piece` moved along `path` (its cells, the start first) at `cost` points.
#[track_caller]
pub fn assert_moved(p: &Played, piece: &str, path: &[(i64, i64)], cost: i64) {
    let cells: Vec<serde_json::Value> = (path.iter())
        .map(|&(col, row)| serde_json::json!({"col": col, "row": row}))
        .collect();
    assert!(
        p.has("moved", piece, |e| e["path"] == serde_json::json!(cells)
            && e["cost"] == cost * 100),
        "expected {piece} moved {path:?}, cost {cost}; the events of {piece}:\n{}",
        about(p, piece)
    );
}

/// Asserts that `piece` changed mode from `from` to `to`.
#[track_caller]
pub fn assert_mode(p: &Played, piece: &str, from: &str, to: &str) {
    assert!(
        p.has("mode_changed", piece, |e| e["from"] == from
            && e["to"] == to),
        "expected {piece} changed mode {from} → {to}; the events of {piece}:\n{}",
        about(p, piece)
    );
}

/// Whether the events hold a roll made for `purpose` (`melee of b (3) against r (2)`,
/// `fire_small_b by b at r`: the roll's own record of who rolled, at whom and at what value).
pub fn rolled(p: &Played, purpose: &str) -> bool {
    p.events.iter().any(|e| e["roll"]["purpose"] == purpose)
}

/// Whether some roll in the events applied the modifier `name` at `value`.
pub fn modified(p: &Played, name: &str, value: i64) -> bool {
    let wanted = serde_json::json!({"name": name, "value": value});
    (p.events.iter())
        .any(|e| (e["roll"]["modifiers"].as_array()).is_some_and(|m| m.contains(&wanted)))
}

/// Whether some roll in the events landed in the band `band`.
pub fn in_band(p: &Played, band: &str) -> bool {
    p.events.iter().any(|e| e["roll"]["band"] == band)
}

/// Asserts that `piece` arrived (was put on the board) at `at` for `reason`.
#[track_caller]
pub fn assert_arrived(p: &Played, piece: &str, (col, row): (i64, i64), reason: &str) {
    let at = serde_json::json!({"col": col, "row": row});
    assert!(
        p.has("arrived", piece, |e| e["at"] == at && e["reason"] == reason),
        "expected {piece} arrived at ({col},{row}) ({reason}); the events of {piece}:\n{}",
        about(p, piece)
    );
}
