//! `grognard serve`, `grognard remote ...` and `grognard join`: remote play through an
//! authoritative server (`grognard_server`; protocol in docs/server.md).

use std::collections::BTreeMap;
use std::path::Path;

use grognard_server::bundle;
use grognard_server::client::Client;
use grognard_server::protocol::{Created, SeatState, Status};

use crate::cli::RemoteCommand;
use crate::common::{Failure, Outcome, print_json};

fn rules(e: String) -> Failure {
    Failure::Rules(e)
}

/// `NAME=on|off` values as a map.
fn options_map(options: &[String]) -> Result<BTreeMap<String, bool>, Failure> {
    Ok(crate::commands::parse_options(options)?
        .into_iter()
        .collect())
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
                        "--policy {p}: expected SIDE=random, SIDE=greedy or SIDE=lua:FILE"
                    ))
                })
        })
        .collect()
}

fn print_created(created: &Created, json: bool) {
    if json {
        print_json(&serde_json::to_value(created).unwrap_or_default());
        return;
    }
    out!("game {}", created.game);
    out!("tokens (give each player only their own; they are not shown again):");
    for (seat, token) in &created.tokens {
        out!("  {seat:<10} {token}");
    }
}

/// `grognard serve`.
pub(crate) fn serve(
    listen: &str,
    db: &Path,
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
    let mut failed = None;
    grognard_server::run(listen, db, |addr, hub| {
        out!(
            "grognard serve: listening on http://{addr}, games in {} (Ctrl-C stops)",
            db.display()
        );
        if let Some(request) = request {
            match hub.create(request) {
                Ok(created) => print_created(&created, false),
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
        out!("{} · {}", state.seat, status_line(&state.status));
    } else {
        let text = &state.text;
        out!("{}", text.strip_suffix('\n').unwrap_or(text));
    }
}

/// `grognard remote ...`.
pub(crate) fn remote(command: RemoteCommand) -> Outcome {
    match command {
        RemoteCommand::Create {
            url,
            scenario,
            options,
            policies,
            seed,
            json,
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
            let request = bundle::gather(
                &scenario,
                options_map(&options)?,
                seed,
                policies_map(&policies)?,
            )
            .map_err(rules)?;
            let created = client.create(&request).map_err(rules)?;
            print_created(&created, json);
            Ok(())
        }
        RemoteCommand::Orders {
            url,
            game,
            token,
            orders,
            json,
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
            let text = std::fs::read_to_string(&orders)
                .map_err(|e| Failure::Rules(format!("cannot read {}: {e}", orders.display())))?;
            let file = grognard_rules::load::display(&orders);
            let reply = client.orders(&game, &token, &file, &text).map_err(rules)?;
            if json {
                print_json(&serde_json::to_value(&reply).unwrap_or_default());
            } else {
                for line in &reply.text {
                    out!("{line}");
                }
            }
            reply.refused.map_or(Ok(()), |r| Err(Failure::Rules(r)))
        }
        RemoteCommand::View {
            url,
            game,
            token,
            json,
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
            print_state(&client.view(&game, &token).map_err(rules)?, json);
            Ok(())
        }
        RemoteCommand::Legal {
            url,
            game,
            token,
            json,
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
            let state = client.view(&game, &token).map_err(rules)?;
            if json {
                print_json(&serde_json::json!({
                    "seat": state.seat, "status": state.status, "orders": state.legal,
                }));
            } else {
                out!("{}", status_line(&state.status));
                for spec in &state.legal {
                    out!("- {}", serde_json::to_string(spec).unwrap_or_default());
                }
            }
            Ok(())
        }
        RemoteCommand::Games { url, json } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
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
                out!(
                    "{}  {} ({}) · {} · {last}",
                    g.game,
                    g.scenario,
                    g.ruleset,
                    status_line(&g.status)
                );
            }
            Ok(())
        }
        RemoteCommand::Undo {
            url,
            game,
            token,
            reason,
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
            let state = client
                .undo(&game, &token, reason.as_deref())
                .map_err(rules)?;
            out!("taken back; {}", status_line(&state.status));
            Ok(())
        }
        RemoteCommand::Chat {
            url,
            game,
            token,
            say,
            json,
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
            if let Some(text) = say {
                client.say(&game, &token, &text).map_err(rules)?;
            }
            let chat = client.chat(&game, &token, 0).map_err(rules)?;
            if json {
                print_json(&serde_json::to_value(&chat).unwrap_or_default());
            } else {
                for l in &chat.lines {
                    out!("[{}] {}: {}", date(l.at), l.seat, l.text);
                }
            }
            Ok(())
        }
        RemoteCommand::Webhook {
            url,
            game,
            token,
            call,
            clear,
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
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
        } => {
            let client = Client::new(&url).map_err(Failure::Usage)?;
            let save = client.save(&game, &token).map_err(rules)?;
            let text = serde_json::to_string_pretty(&save).unwrap_or_default();
            std::fs::write(&out, text + "\n")
                .map_err(|e| Failure::Rules(format!("cannot write {}: {e}", out.display())))?;
            out!("saved to {}", out.display());
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_read_as_people_write_them() {
        assert_eq!(super::date(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::date(1_795_642_800), "2026-11-25 21:40 UTC");
    }
}
