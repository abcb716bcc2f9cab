//! Webhooks: a seat may give an `http://` URL that the server calls (a POST with a small
//! JSON body) when it becomes that seat's side's turn, so a player away for days hears of
//! it. Calls are made from a thread of their own with a short timeout; a failure is logged
//! on the server's stderr and changes nothing in the game.

use std::time::Duration;

use serde_json::json;

use crate::game::Live;

/// Longest webhook URL.
const MAX_URL_CHARS: usize = 2_000;

/// How long a webhook call may take.
const TIMEOUT: Duration = Duration::from_secs(5);

/// Checks a webhook URL.
///
/// # Errors
/// Not an `http://` URL, or too long.
pub fn check_url(url: &str) -> Result<(), String> {
    if url.chars().count() > MAX_URL_CHARS {
        return Err(format!(
            "a webhook URL has at most {MAX_URL_CHARS} characters"
        ));
    }
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        format!("webhook `{url}`: only http:// URLs are called (put a relay in front for https)")
    })?;
    if rest.is_empty() || rest.starts_with('/') || url.chars().any(char::is_whitespace) {
        return Err(format!("webhook `{url}` names no host"));
    }
    Ok(())
}

/// Calls the webhook of every side whose turn it has become (in `after`, not in `before`).
pub fn notify(game: &Live, before: &[String], after: &[String]) {
    let status = game.status();
    for side in after.iter().filter(|s| !before.contains(s)) {
        let Some(url) = game.webhooks().get(side) else {
            continue;
        };
        let body = json!({
            "game": game.id,
            "seat": side,
            "turn": status.turn,
            "phase": status.phase,
            "to_act": status.to_act,
        });
        let url = url.clone();
        let _ = std::thread::Builder::new()
            .name("webhook".into())
            .spawn(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .timeout_global(Some(TIMEOUT))
                    .build()
                    .into();
                if let Err(e) = agent.post(&url).send_json(&body) {
                    eprintln!("grognard serve: webhook {url}: {e}");
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_urls_with_a_host() {
        assert!(check_url("http://127.0.0.1:9/turn").is_ok());
        for bad in ["https://x", "ftp://x", "http://", "http:///x", "http://a b"] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
    }
}
