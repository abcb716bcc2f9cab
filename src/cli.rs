//! Command-line arguments.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// A rules engine for tabletop horse-and-musket wargames.
#[derive(Debug, Parser)]
#[command(name = "grognard", version, about, long_about = None)]
pub struct Cli {
    /// What to do. Without a command, the editor opens when a display is present
    /// (`DISPLAY` or `WAYLAND_DISPLAY` is set); otherwise this help is printed.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check rulesets, scenarios and orders files; exits 0 only if all are valid.
    Validate {
        /// Files to check (the kind is read from the top-level key).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print diagnostics as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Every place a piece can reach this phase, with cost and path.
    Reach {
        /// Scenario file.
        scenario: PathBuf,
        /// Piece id (as in the scenario).
        #[arg(long = "unit")]
        unit: String,
        /// Play these orders first, then ask.
        #[arg(long)]
        orders: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Apply a file of orders and print the events; with --policy, play the game on to its
    /// end with policies.
    Play {
        /// Scenario file.
        scenario: PathBuf,
        /// Orders file (with --policy: the opening the policies go on from).
        #[arg(long)]
        orders: Option<PathBuf>,
        /// Who plays on after the orders: `random`, `greedy` or `search[:MILLISECONDS]`
        /// (`search:it=N`: N iterations a decision) for every side, or `SIDE=NAME` for one
        /// (repeatable; also `lua:FILE[:FUNCTION]`). A side with no policy ends each phase
        /// it is asked to act in, as in `sim`.
        #[arg(long = "policy", value_name = "[SIDE=]POLICY")]
        policy: Vec<String>,
        /// Seed for the dice (the scenario's when absent).
        #[arg(long)]
        seed: Option<u64>,
        /// Optional rule choice, `name=on|off` (repeatable).
        #[arg(long = "option", value_name = "NAME=on|off")]
        options: Vec<String>,
        /// Write a replayable save here (with --side: that side's redacted save).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Print (and save) only what this side saw.
        #[arg(long)]
        side: Option<String>,
        /// After each order of a `search` policy, print the orders it weighed most, with
        /// their visits and mean scores.
        #[arg(long)]
        explain: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play random legal games to their end, checking every order; on a failure, write a
    /// shrunk reproduction and exit 1.
    Fuzz {
        /// Scenario file.
        scenario: PathBuf,
        /// Games to play (seeds S, S+1, ...).
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Seed of the first game (the scenario's when absent).
        #[arg(long)]
        seed: Option<u64>,
        /// Write the reproduction of a failure (scenario and orders) into this folder.
        #[arg(long)]
        repro: Option<PathBuf>,
        /// Play every game but the first on a scenario around the given one: pieces moved
        /// onto or next to others of their side, counters halved or doubled.
        #[arg(long)]
        vary: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Every order a side may give now, as that side can judge it (one line per order, in
    /// the orders-file syntax).
    Legal {
        /// Scenario file.
        scenario: PathBuf,
        /// Play these orders first, then ask.
        #[arg(long)]
        orders: Option<PathBuf>,
        /// The side whose orders to list.
        #[arg(long)]
        side: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// What one side can see: its own pieces, the enemy pieces it knows of, and its log
    /// (or, with --referee, everything).
    View {
        /// A scenario, or a save (`.json`) to replay first.
        file: PathBuf,
        /// Play these orders on the scenario first.
        #[arg(long)]
        orders: Option<PathBuf>,
        /// The side whose view to print.
        #[arg(long)]
        side: Option<String>,
        /// Print the full state instead (the referee's view).
        #[arg(long)]
        referee: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// A tape measure between two pieces: the distance (table and rule inches, or grid
    /// steps), which arc of each the other stands in, and whether each can see the other.
    /// Without --side it is the referee's view (every piece as it really is, by its
    /// scenario id: not for a player under hidden rules); with --side, that side's view.
    Measure {
        /// A scenario, or a save (`.json`) to replay first.
        file: PathBuf,
        /// One piece: by scenario id (the referee), or as --side names it (`#N` for a marker).
        a: String,
        /// The other piece, named alike.
        b: String,
        /// Play these orders on the scenario first.
        #[arg(long)]
        orders: Option<PathBuf>,
        /// Measure as this side knows the table: its own pieces and enemies it has identified
        /// by name, markers by handle (`#N`), measured as markers (place and facing only).
        #[arg(long)]
        side: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Re-run a saved game and check it reproduces every event.
    Replay {
        /// Save file.
        game: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// What a ruleset changes from another, item by item (a semantic diff).
    Diff {
        /// The first ruleset (usually the base).
        a: PathBuf,
        /// The second ruleset (usually the house rule).
        b: PathBuf,
        /// Print a list of `{path, change, from, to}` records.
        #[arg(long)]
        json: bool,
    },
    /// Play the same orders many times with different seeds and summarise the outcomes.
    Sim(SimFlags),
    /// Find the smallest change to the ruleset that brings a side's win rate to a target:
    /// every candidate is a house-rule overlay played over the same seeds.
    Tune(TuneFlags),
    /// Add up the parts written by `tune --shard I/N --out PART.json` and print the
    /// answer the whole grid gives.
    #[command(name = "tune-merge")]
    TuneMerge {
        /// The part files, one per shard, in any order.
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// Write the tuned ruleset here as a house-rule overlay.
        #[arg(long, value_name = "OVERLAY.yaml")]
        out: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Merge the parts written by `sim --shard I/N --out PART.json` and print the summary
    /// the whole run prints.
    #[command(name = "sim-merge")]
    SimMerge {
        /// The part files, one per shard, in any order.
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write a printable HTML quick-reference sheet of a ruleset.
    Sheet {
        /// Ruleset file.
        ruleset: PathBuf,
        /// The HTML file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// The exact odds of every outcome of a chart (no sampling), for chosen inputs.
    Chart {
        /// Ruleset file.
        ruleset: PathBuf,
        /// Chart name.
        chart: String,
        /// Input value, `name=value` or a range `name=-3..3` (repeatable; one input may
        /// take several values, which prints a table).
        #[arg(long = "set", value_name = "NAME=VALUE", allow_hyphen_values = true)]
        set: Vec<String>,
        /// Set the inputs the acting piece gives (its attributes; 1 or 0 for a mode) from
        /// this piece type of the ruleset, in its default mode or the one named. Under
        /// --against, from that ruleset's type: an overlay's change to it shows.
        #[arg(long, value_name = "TYPE[:MODE]")]
        actor: Option<String>,
        /// The same for the target.
        #[arg(long, value_name = "TYPE[:MODE]")]
        target: Option<String>,
        /// Compare with the same chart under this ruleset.
        #[arg(long)]
        against: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Summarise a ruleset: optional rules with their defaults, modes, pieces, charts, layers.
    Show {
        /// Ruleset file.
        ruleset: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of a file kind, for editors.
    Schema {
        /// `ruleset`, `scenario` or `orders`; `view`: a side's view (`view --json`).
        #[arg(value_parser = ["ruleset", "scenario", "orders", "view"])]
        kind: String,
    },
    /// Open the editor: switch rulesets, tweak charts and costs with live odds, save house
    /// rules, play on the board.
    Edit {
        /// A ruleset to open (or a scenario, when it is the only file given).
        ruleset: Option<PathBuf>,
        /// A scenario to open under that ruleset.
        scenario: Option<PathBuf>,
    },
    /// Resolve one chart, showing the dice and every modifier.
    Roll {
        /// Ruleset file.
        ruleset: PathBuf,
        /// Chart name.
        chart: String,
        /// Input value, `name=value` (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Set the inputs the acting piece gives (its attributes; 1 or 0 for a mode) from
        /// this piece type of the ruleset, in its default mode or the one named, as `chart
        /// --actor` does. An input given with --set keeps that value.
        #[arg(long, value_name = "TYPE[:MODE]")]
        actor: Option<String>,
        /// The same for the target.
        #[arg(long, value_name = "TYPE[:MODE]")]
        target: Option<String>,
        /// Seed for the dice (random when absent).
        #[arg(long)]
        seed: Option<u64>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Run an authoritative referee server for remote play: seats with secret tokens, games
    /// kept as order logs in one SQLite file, live updates over WebSockets
    /// (docs/server.md). Runs until interrupted.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:7878")]
        listen: String,
        /// The database file (created on first start).
        #[arg(long, default_value = "games.sqlite")]
        db: PathBuf,
        /// Also create a game from this scenario at start and print its seats' tokens.
        #[arg(long, value_name = "SCENARIO")]
        create: Option<PathBuf>,
        /// With --create: optional rule choice, `name=on|off` (repeatable).
        #[arg(long = "option", value_name = "NAME=on|off")]
        options: Vec<String>,
        /// With --create: a side the server plays (repeatable), `SIDE=random`, `SIDE=greedy`,
        /// `SIDE=search[:MILLISECONDS]` (1 s an order by default), `SIDE=search:it=N` or
        /// `SIDE=lua:FILE[:FUNCTION]`. A side given none is a person's seat.
        #[arg(long = "policy", value_name = "SIDE=POLICY")]
        policies: Vec<String>,
        /// With --create: fix the game's seed (otherwise the server draws a secret one).
        #[arg(long)]
        seed: Option<u64>,
        /// Keep the host token in this file across restarts: read it if the file exists,
        /// else write a new one there (readable by its owner only). Without it a new host
        /// token is printed at each start.
        #[arg(long, value_name = "FILE")]
        host_token_file: Option<PathBuf>,
        /// A public server: anyone may create games, within the per-address and total
        /// limits (docs/server.md); no host token.
        #[arg(long)]
        open: bool,
        /// Let webhooks call loopback, private and link-local addresses (a club's own LAN).
        #[arg(long)]
        allow_local_webhooks: bool,
    },
    /// A client of `grognard serve`: create games, send orders, see a seat's view.
    Remote {
        /// What to ask.
        #[command(subcommand)]
        command: RemoteCommand,
    },
    /// Open the editor as a seat of a game on a server: `join URL GAME --token T`, or
    /// `join LINK` with the seat's whole link (`http://HOST:PORT/play/GAME#token=T`).
    Join {
        /// The server (`http://HOST:PORT`), or the seat's whole link.
        url: String,
        /// The game's id (not needed with a link).
        game: Option<String>,
        /// The seat's token (not needed with a link).
        #[arg(long)]
        token: Option<String>,
    },
}

/// `grognard remote` commands.
#[derive(Debug, Subcommand)]
pub enum RemoteCommand {
    /// Create a game on the server from a scenario (its ruleset and files go with it);
    /// prints the game's id and one token per seat.
    Create {
        /// The server (`http://HOST:PORT`).
        url: String,
        /// Scenario file.
        scenario: PathBuf,
        /// Optional rule choice, `name=on|off` (repeatable).
        #[arg(long = "option", value_name = "NAME=on|off")]
        options: Vec<String>,
        /// A side the server plays (repeatable), `SIDE=random`, `SIDE=greedy`,
        /// `SIDE=search[:MILLISECONDS]` (1 s an order by default), `SIDE=search:it=N` or
        /// `SIDE=lua:FILE[:FUNCTION]`. A side given none is a person's seat.
        #[arg(long = "policy", value_name = "SIDE=POLICY")]
        policies: Vec<String>,
        /// Fix the game's seed (the server says so in its status); otherwise the server
        /// draws one no seat can know.
        #[arg(long)]
        seed: Option<u64>,
        /// The server's host token (printed by `grognard serve` at its start); not needed
        /// on an `--open` server.
        #[arg(long, env = "GROGNARD_HOST_TOKEN", hide_env_values = true)]
        host_token: Option<String>,
        /// Print JSON: `{"game": ID, "tokens": {SEAT: TOKEN, ...}}`.
        #[arg(long)]
        json: bool,
    },
    /// Send an orders file for the token's seat; stops at the first refusal (exit 1).
    Orders {
        /// The server.
        url: String,
        /// The game's id.
        game: String,
        /// The seat's token.
        #[arg(long)]
        token: String,
        /// Orders file (as `play --orders` reads).
        orders: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print what the token's seat sees, exactly as `grognard view --side` prints it.
    View {
        /// The server.
        url: String,
        /// The game's id.
        game: String,
        /// The seat's token.
        #[arg(long)]
        token: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the server's games: whose turn it is and when the last order came.
    Games {
        /// The server.
        url: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the orders the token's side may give now.
    Legal {
        /// The server.
        url: String,
        /// The game's id.
        game: String,
        /// The seat's token.
        #[arg(long)]
        token: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Take back the seat's last order (the referee: any last order, with --reason).
    Undo {
        /// The server.
        url: String,
        /// The game's id.
        game: String,
        /// The seat's token.
        #[arg(long)]
        token: String,
        /// Why (the referee must say).
        #[arg(long)]
        reason: Option<String>,
    },
    /// Read the game's chat, or say something with --say.
    Chat {
        /// The server.
        url: String,
        /// The game's id.
        game: String,
        /// The seat's token.
        #[arg(long)]
        token: String,
        /// A line to say.
        #[arg(long)]
        say: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Call this `http://` URL when it becomes the seat's turn (`--clear` removes it).
    Webhook {
        /// The server.
        url: String,
        /// The game's id.
        game: String,
        /// The seat's token.
        #[arg(long)]
        token: String,
        /// The URL to call.
        #[arg(long, conflicts_with = "clear")]
        call: Option<String>,
        /// Remove the webhook.
        #[arg(long)]
        clear: bool,
    },
    /// Write the referee's save of the game (the referee's token), replayable with
    /// `grognard replay` beside the game's files.
    Save {
        /// The server.
        url: String,
        /// The game's id.
        game: String,
        /// The referee's token.
        #[arg(long)]
        token: String,
        /// Where to write it.
        #[arg(long)]
        out: PathBuf,
    },
}

// The flags of `sim` and `tune`, each a struct of its own so the command's module builds
// what it runs from them (`SimArgs::of`, `TuneArgs::of`). The help text is the
// variant's doc comment above.
#[derive(Debug, clap::Args)]
pub struct SimFlags {
    /// Scenario file.
    pub scenario: PathBuf,
    /// Orders file: every game replays it (and policies, if given, go on from there).
    #[arg(long)]
    pub orders: Option<PathBuf>,
    /// Who plays: `random`, `greedy`, `search[:MILLISECONDS]` or `search:it=N` for
    /// every side, or `SIDE=NAME` for one (repeatable; also `lua:FILE[:FUNCTION]`).
    /// Policies play whole games from their legal orders. A side given no policy plays
    /// no one: it ends each phase it is asked to act in (after the orders file's orders),
    /// so give every side one to measure a fight. The summary says who played each side.
    #[arg(long = "policy", value_name = "[SIDE=]POLICY")]
    pub policy: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub runs: u32,
    /// Seed of the first game (the scenario's when absent); game i uses seed + i.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Also play with this ruleset and compare.
    #[arg(long)]
    pub ruleset: Option<PathBuf>,
    /// Worker threads (all cores when absent).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play only shard I of N (I from 1): games I-1, I-1+N, I-1+2N, ... with the seeds
    /// the whole run gives them. Needs --out.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write the exact tally of the games played to this file (for `sim-merge`)
    /// instead of printing the summary.
    #[arg(long, value_name = "PART.json")]
    pub out: Option<PathBuf>,
    /// Save games into this folder as saves (`game-NNNN.json`; with --ruleset,
    /// `a-game-…` and `b-game-…`) that `replay` verifies, `view` reads and the editor
    /// opens.
    #[arg(long = "save-games", value_name = "DIR")]
    pub save_games: Option<PathBuf>,
    /// Which games --save-games keeps: all (the default), wins:SIDE, draws, longest,
    /// shortest, or a game number N (seed + N).
    #[arg(long, value_name = "all|wins:SIDE|draws|longest|shortest|N")]
    pub which: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct TuneFlags {
    /// Scenario file.
    pub scenario: PathBuf,
    /// The side and the win rate to reach: `SIDE=0.5` or `SIDE=50%`.
    #[arg(long, value_name = "SIDE=RATE")]
    pub target: String,
    /// A number in the ruleset that may move, by its dotted path, with the values it
    /// may take: `charts.volley.rows.0.score=6..10`, `piece_types.infantry.allowance.battle=1..2`
    /// (repeatable; without a range, ±3 steps).
    #[arg(long, value_name = "PATH[=LO..HI]", required = true)]
    pub vary: Vec<String>,
    /// Who plays: `random` or `greedy` for every side, or `SIDE=NAME` for one
    /// (repeatable), as in `sim`.
    #[arg(
        long = "policy",
        value_name = "[SIDE=]POLICY",
        default_value = "greedy"
    )]
    pub policy: Vec<String>,
    /// Games a candidate (the same seeds for every candidate).
    #[arg(long, default_value_t = 400)]
    pub runs: u32,
    /// Seed of the first game (the scenario's when absent).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (all cores when absent).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Try every combination of the items' values instead of searching.
    #[arg(long)]
    pub grid: bool,
    /// Play only shard I of N of the grid's games (needs --out PART.json; add the
    /// parts up with `tune-merge`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write the tuned ruleset here as a house-rule overlay (with --shard: the part).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}
