//! `grognard serve`, `grognard remote ...` and `grognard join`: remote play through an
//! authoritative server (`grognard_server`; protocol in docs/server.md).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use grognard_server::bundle;
use grognard_server::client::Client;
use grognard_server::config::{Access, Config};
use grognard_server::display::escape_controls;
use grognard_server::protocol::{Created, SeatState, Status};

use crate::cli::RemoteCommand;
use crate::common::{Failure, Outcome, parse_options, print_json};

/// A server's refusal, as the terminal shows it (its text may quote what another seat or
/// the game's creator wrote).
fn rules(e: impl std::fmt::Display) -> Failure {
    Failure::Rules(escaped_lines(&e.to_string()))
}

/// Text from the server, each line with its control and bidi characters escaped: names,
/// views and events come from whoever created the game, so they must not drive the
/// reader's terminal either (`--json` gives them as sent).
fn escaped_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| escape_controls(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Prints text from the server, escaped line by line.
fn show(text: &str) {
    out!("{}", escaped_lines(text));
}

/// `NAME=on|off` values as a map.
fn options_map(options: &[String]) -> Result<BTreeMap<String, bool>, Failure> {
    Ok(parse_options(options)?.into_iter().collect())
}

/// `SIDE=POLICY` values as a map.
fn policies_map(policies: &[String]) -> Result<BTreeMap<String, String>, Failure> {
    policies
        .iter()
        .map(|p| {
            p.split_once('=')
                .filter(|(side, policy)| !side.is_empty() && !policy.is_empty())
                .map(|(s, p)| (s.to_owned(), p.to_owned()))
                .ok_or_else(|| {
                    Failure::Usage(format!(
                        "--policy {p}: expected SIDE=random, SIDE=greedy, SIDE=search[:MILLISECONDS] or SIDE=lua:FILE"
                    ))
                })
        })
        .collect()
}

/// The game and, for each seat, its link (sides first, then referee and spectator); a
/// side the server plays (`policies`, as the create request named them) says so and how.
fn created_lines(
    created: &Created,
    base: &str,
    policies: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut lines = vec![
        format!("game {}", created.game),
        "links (give each player only their own; they are not shown again):".to_owned(),
    ];
    // The same links, in the same order, as the editor's *Host game…* lists.
    for (seat, link) in grognard_server::client::seat_links(created, base) {
        match policies.get(&seat) {
            Some(policy) => lines.push(format!(
                "  {seat:<10} {link}  (played by the server: {})",
                grognard_server::client::policy_words(policy)
            )),
            None => lines.push(format!("  {seat:<10} {link}")),
        }
    }
    lines.push(
        "(the token is what follows #token=, for `grognard join` and `grognard remote`)".to_owned(),
    );
    lines
}

fn print_created(created: &Created, json: bool, base: &str, policies: &BTreeMap<String, String>) {
    if json {
        print_json(&serde_json::to_value(created).unwrap_or_default());
        return;
    }
    for line in created_lines(created, base, policies) {
        out!("{line}");
    }
}

/// The base URL players reach a server listening on `addr` at: an unspecified address
/// (`0.0.0.0`) is this machine's host name.
fn public_base(addr: std::net::SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .or_else(|| std::env::var("HOSTNAME").ok())
            .or_else(|| std::env::var("COMPUTERNAME").ok())
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "HOST".to_owned());
        format!("http://{name}:{}", addr.port())
    } else {
        format!("http://{addr}")
    }
}

/// The scenarios the host page offers: every scenario in `examples/` under the folder the
/// server starts in (a checkout), and the one given to `--create`. One that does not load
/// is left out, with a line on stderr.
fn offered(create: Option<&Path>) -> Vec<grognard_server::web::Offered> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("examples")
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                    name.ends_with(".yaml") && !name.ends_with(".orders.yaml")
                })
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths.extend(create.map(Path::to_path_buf));
    let mut list: Vec<grognard_server::web::Offered> = Vec::new();
    for path in paths {
        match grognard_server::web::offer(&path) {
            Ok(o) if !list.iter().any(|x| x.name == o.name) => list.push(o),
            Ok(_) => {}
            Err(e) => eprintln!("not offered on the host page: {}: {e}", path.display()),
        }
    }
    list
}

/// How `grognard serve` was asked to run.
pub(crate) struct ServeFlags {
    pub listen: String,
    pub db: PathBuf,
    pub host_token_file: Option<PathBuf>,
    pub open: bool,
    pub allow_local_webhooks: bool,
}

/// The host token: read from `file` if it exists, else a new one (written to `file` if
/// given, readable by its owner only).
fn host_token(file: Option<&Path>) -> Result<String, Failure> {
    if let Some(f) = file
        && f.exists()
    {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Failure::Rules(format!("cannot read {}: {e}", f.display())))?;
        let token = text.trim().to_owned();
        if token.len() < 32 || token.chars().any(char::is_whitespace) {
            return Err(Failure::Rules(format!(
                "{}: expected one host token of at least 32 characters on one line",
                f.display()
            )));
        }
        return Ok(token);
    }
    let token = grognard_server::tokens::new_token().map_err(|e| rules(e.to_string()))?;
    if let Some(f) = file {
        write_private(f, &format!("{token}\n"))
            .map_err(|e| Failure::Rules(format!("cannot write {}: {e}", f.display())))?;
    }
    Ok(token)
}

/// Writes a file only its owner may read.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// `grognard serve`.
pub(crate) fn serve(
    flags: &ServeFlags,
    create: Option<&Path>,
    (options, policies, seed): (&[String], &[String], Option<u64>),
) -> Outcome {
    let request = match create {
        Some(scenario) => Some(
            bundle::gather(
                scenario,
                options_map(options)?,
                seed,
                policies_map(policies)?,
            )
            .map_err(rules)?,
        ),
        None => None,
    };
    let token = if flags.open {
        None
    } else {
        Some(host_token(flags.host_token_file.as_deref())?)
    };
    let mut config = Config::new(
        &flags.listen,
        &flags.db,
        token.as_deref().unwrap_or_default(),
    );
    if flags.open {
        config.access = Access::Open;
    }
    config.allow_local_webhooks = flags.allow_local_webhooks;
    config.offered = offered(create);
    let db = flags.db.clone();
    let mut failed = None;
    grognard_server::run(config, |addr, hub| {
        // A server outlives whoever reads its start-up lines: a closed stdout must not
        // stop it (the CLI's `out!` exits on a broken pipe, as `grognard ... | head` wants).
        let say = |line: String| {
            use std::io::Write;
            let _ = writeln!(std::io::stdout(), "{line}");
        };
        say(format!(
            "grognard serve: listening on http://{addr}, games in {} (Ctrl-C stops)",
            db.display()
        ));
        say(match (&token, &flags.host_token_file) {
            (Some(t), None) => format!(
                "host token (creates games: `remote create URL SCENARIO --host-token TOKEN`): {t}"
            ),
            (Some(_), Some(f)) => format!("host token: in {}", f.display()),
            (None, _) => "open server: anyone may create games, within the limits".to_owned(),
        });
        let base = public_base(addr);
        say(match (&token, &flags.host_token_file) {
            (Some(t), None) => {
                format!("host page (creates games in a browser): {base}/host#token={t}")
            }
            (Some(_), Some(_)) => format!("host page (give it the host token): {base}/host"),
            (None, _) => format!("host page: {base}/host"),
        });
        if let Some(request) = request {
            let seated = request.policies.clone();
            match hub.create(request) {
                Ok(created) => {
                    for line in created_lines(&created, &base, &seated) {
                        say(line);
                    }
                }
                Err(e) => failed = Some(e.to_string()),
            }
        }
    })
    .map_err(rules)?;
    failed.map_or(Ok(()), |e| Err(Failure::Rules(e)))
}

/// A date as `2026-11-25 21:40 UTC` (seconds since 1970).
fn date(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (h, m) = ((secs % 86_400) / 3_600, (secs % 3_600) / 60);
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year}-{month:02}-{day:02} {h:02}:{m:02} UTC")
}

fn status_line(s: &Status) -> String {
    if s.over {
        return format!(
            "over: {}",
            s.result.as_ref().map_or("no result", |r| r.why.as_str())
        );
    }
    let who = if s.to_act.is_empty() {
        "nobody".to_owned()
    } else {
        s.to_act.join(" and ")
    };
    format!(
        "turn {} · {} phase · {who} to act",
        s.turn,
        s.phase.as_deref().unwrap_or("?")
    )
}

fn print_state(state: &SeatState, json: bool) {
    if json {
        print_json(&state.view);
    } else if state.text.is_empty() {
        show(&format!("{} · {}", state.seat, status_line(&state.status)));
    } else {
        let text = &state.text;
        show(text.strip_suffix('\n').unwrap_or(text));
    }
}

/// `grognard remote ...`: one function per command, each opening its own client (a bad
/// URL is a usage error before anything else is checked).
pub(crate) fn remote(command: RemoteCommand) -> Outcome {
    match command {
        RemoteCommand::Create {
            url,
            scenario,
            options,
            policies,
            seed,
            host_token,
            json,
        } => create(
            &url,
            &scenario,
            (&options, &policies, seed),
            host_token.as_deref(),
            json,
        ),
        RemoteCommand::Orders {
            url,
            game,
            token,
            orders,
            json,
        } => send_orders(&client(&url)?, (&game, &token), &orders, json),
        RemoteCommand::View {
            url,
            game,
            token,
            json,
        } => {
            let client = client(&url)?;
            print_state(&client.view(&game, &token).map_err(rules)?, json);
            Ok(())
        }
        RemoteCommand::Legal {
            url,
            game,
            token,
            json,
        } => legal(&client(&url)?, (&game, &token), json),
        RemoteCommand::Games { url, json } => games(&client(&url)?, &url, json),
        RemoteCommand::Undo {
            url,
            game,
            token,
            reason,
        } => {
            let client = client(&url)?;
            let state = client
                .undo(&game, &token, reason.as_deref())
                .map_err(rules)?;
            show(&format!("taken back; {}", status_line(&state.status)));
            Ok(())
        }
        RemoteCommand::Chat {
            url,
            game,
            token,
            say,
            json,
        } => chat(&client(&url)?, (&game, &token), say.as_deref(), json),
        RemoteCommand::Webhook {
            url,
            game,
            token,
            call,
            clear,
        } => {
            let client = client(&url)?;
            if call.is_none() && !clear {
                return Err(Failure::Usage("give --call URL or --clear".into()));
            }
            client
                .webhook(&game, &token, call.as_deref())
                .map_err(rules)?;
            Ok(())
        }
        RemoteCommand::Save {
            url,
            game,
            token,
            out,
        } => save(&client(&url)?, (&game, &token), &out),
    }
}

/// A client for the server at `url`; a URL it cannot use is the caller's mistake.
fn client(url: &str) -> Result<Client, Failure> {
    Client::new(url).map_err(|e| Failure::Usage(e.to_string()))
}

/// `remote create`: gathers the scenario's files and asks the server for a game.
fn create(
    url: &str,
    scenario: &Path,
    (options, policies, seed): (&[String], &[String], Option<u64>),
    host_token: Option<&str>,
    json: bool,
) -> Outcome {
    let client = client(url)?;
    let request = bundle::gather(
        scenario,
        options_map(options)?,
        seed,
        policies_map(policies)?,
    )
    .map_err(rules)?;
    // Every file the scenario loads goes to the server, wherever it lies: say which,
    // so a host sending someone else's scenario sees what leaves the machine.
    eprintln!(
        "sending {} files: {}",
        request.files.len(),
        request
            .files
            .keys()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let created = client.create(&request, host_token).map_err(rules)?;
    print_created(&created, json, url, &request.policies);
    Ok(())
}

/// `remote orders`: sends an orders file as one seat; a refusal is the command's failure.
fn send_orders(client: &Client, (game, token): (&str, &str), orders: &Path, json: bool) -> Outcome {
    let text = std::fs::read_to_string(orders)
        .map_err(|e| Failure::Rules(format!("cannot read {}: {e}", orders.display())))?;
    let file = grognard_rules::load::display(orders);
    let reply = client.orders(game, token, &file, &text).map_err(rules)?;
    if json {
        print_json(&serde_json::to_value(&reply).unwrap_or_default());
    } else {
        for line in &reply.text {
            show(line);
        }
    }
    reply.refused.map_or(Ok(()), |r| Err(rules(r)))
}

/// `remote legal`: the orders the seat may give now, one a line.
fn legal(client: &Client, (game, token): (&str, &str), json: bool) -> Outcome {
    let state = client.view(game, token).map_err(rules)?;
    if json {
        print_json(&serde_json::json!({
            "seat": state.seat, "status": state.status, "orders": state.legal,
        }));
    } else {
        show(&status_line(&state.status));
        for spec in &state.legal {
            show(&format!(
                "- {}",
                serde_json::to_string(spec).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// `remote games`: the server's games with their state and last order.
fn games(client: &Client, url: &str, json: bool) -> Outcome {
    let list = client.games().map_err(rules)?;
    if json {
        print_json(&serde_json::to_value(&list).unwrap_or_default());
        return Ok(());
    }
    if list.games.is_empty() {
        out!("no games on {url}");
    }
    for g in &list.games {
        let last = g.status.last_order_at.map_or_else(
            || "no orders yet".to_owned(),
            |t| format!("last order {}", date(t)),
        );
        show(&format!(
            "{}  {} ({}) · {} · {last}",
            g.game,
            g.scenario,
            g.ruleset,
            status_line(&g.status)
        ));
    }
    Ok(())
}

/// `remote chat`: says a line if given, then shows the game's chat.
fn chat(client: &Client, (game, token): (&str, &str), say: Option<&str>, json: bool) -> Outcome {
    if let Some(text) = say {
        client.say(game, token, text).map_err(rules)?;
    }
    let chat = client.chat(game, token, 0).map_err(rules)?;
    if json {
        print_json(&serde_json::to_value(&chat).unwrap_or_default());
    } else {
        // What other seats wrote is shown with its control and bidi characters
        // escaped, so it cannot drive the terminal; `--json` gives it as sent.
        for l in &chat.lines {
            out!(
                "[{}] {}: {}",
                date(l.at),
                escape_controls(&l.seat),
                escape_controls(&l.text)
            );
        }
    }
    Ok(())
}

/// `remote save`: writes the game's record to a file on this machine.
fn save(client: &Client, (game, token): (&str, &str), out: &Path) -> Outcome {
    let save = client.save(game, token).map_err(rules)?;
    let text = serde_json::to_string_pretty(&save).unwrap_or_default();
    std::fs::write(out, text + "\n")
        .map_err(|e| Failure::Rules(format!("cannot write {}: {e}", out.display())))?;
    out!("saved to {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_client_commands_build_on_common_never_on_the_dispatch() {
        // `commands` dispatches to this module; a use of it from here would make the two a
        // circle again (the shared `--option` parsing lives in `common`).
        let source = include_str!("remote.rs");
        assert!(!source.contains(concat!("crate::", "commands")));
        assert!(!include_str!("common.rs").contains(concat!("crate::", "remote")));
    }

    #[test]
    fn dates_read_as_people_write_them() {
        assert_eq!(super::date(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::date(1_795_642_800), "2026-11-25 21:40 UTC");
    }
}
