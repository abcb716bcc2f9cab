//! A blocking client of the server's HTTP API: what `grognard remote` and the editor use.
//! Every call returns the server's own error text when it refuses ([`ClientError::Refused`],
//! with the HTTP status), and says so when no grognard server answered.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::protocol::{
    Chat, ChatLine, CreateGame, Created, ErrorBody, GameList, OrdersReply, Say, SeatState,
    SendOrders, Table, Undo, Webhook,
};

/// Why a call to the server gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The address given is not `http://HOST:PORT` (a mistake in the command line).
    NotAServer(String),
    /// Nothing answered at the address.
    Unreachable {
        /// The server's base URL.
        base: String,
        /// The request's path.
        what: String,
        /// Why, as the HTTP library says.
        why: String,
    },
    /// The answer could not be read (too long, cut short).
    Unreadable {
        /// The server's base URL.
        base: String,
        /// The request's path.
        what: String,
        /// Why.
        why: String,
    },
    /// A successful answer that is not what a grognard server sends.
    NotGrognard {
        /// The server's base URL.
        base: String,
        /// The request's path.
        what: String,
        /// Why it does not decode.
        why: String,
    },
    /// The server refused the request: its HTTP status, why in a word when the game
    /// refused an order (`paused`, …: the WebSocket's `refused` kinds), and its own text (the
    /// status line when its answer carried none).
    Refused {
        /// The HTTP status.
        status: u16,
        /// The refusal's kind, when the server gave one ([`ErrorBody::kind`]).
        kind: Option<String>,
        /// What the server said.
        message: String,
    },
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotAServer(url) => {
                write!(f, "`{url}` is not a server address: give http://HOST:PORT")
            }
            Self::Unreachable { base, what, why } => {
                write!(f, "cannot reach {base} ({what}): {why}")
            }
            Self::Unreadable { base, what, why } => write!(f, "{base}: {what}: {why}"),
            Self::NotGrognard { base, what, why } => {
                write!(
                    f,
                    "{base}: {what}: not an answer of a grognard server: {why}"
                )
            }
            Self::Refused { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for ClientError {}

/// A server, by its base URL.
#[derive(Clone, Debug)]
pub struct Client {
    base: String,
    agent: ureq::Agent,
}

impl Client {
    /// A client of the server at `url` (`http://HOST:PORT`).
    ///
    /// # Errors
    /// Not an `http://` URL.
    pub fn new(url: &str) -> Result<Self, ClientError> {
        let base = url.trim_end_matches('/').to_owned();
        if !base.starts_with("http://") {
            return Err(ClientError::NotAServer(url.to_owned()));
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Ok(Self { base, agent })
    }

    /// The base URL.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.base
    }

    fn answer<T: DeserializeOwned>(
        &self,
        what: &str,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<T, ClientError> {
        let (base, what) = (self.base.clone(), what.to_owned());
        let mut response = match response {
            Ok(r) => r,
            Err(e) => {
                let why = e.to_string();
                return Err(ClientError::Unreachable { base, what, why });
            }
        };
        let status = response.status();
        let body = match response
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_string()
        {
            Ok(b) => b,
            Err(e) => {
                let why = e.to_string();
                return Err(ClientError::Unreadable { base, what, why });
            }
        };
        if status.is_success() {
            let text = if body.is_empty() { "null" } else { &body };
            serde_json::from_str(text).map_err(|e| ClientError::NotGrognard {
                base,
                what,
                why: e.to_string(),
            })
        } else {
            let (message, kind) = serde_json::from_str::<ErrorBody>(&body)
                .map_or_else(|_| (format!("{status}"), None), |b| (b.error, b.kind));
            Err(ClientError::Refused {
                status: status.as_u16(),
                kind,
                message,
            })
        }
    }

    fn get<T: DeserializeOwned>(&self, path: &str, token: Option<&str>) -> Result<T, ClientError> {
        let mut request = self.agent.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            request = request.header("Authorization", format!("Bearer {t}"));
        }
        self.answer(path, request.call())
    }

    fn send<B: Serialize, T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &B,
    ) -> Result<T, ClientError> {
        let url = format!("{}{path}", self.base);
        let mut request = if method == "PUT" {
            self.agent.put(url)
        } else {
            self.agent.post(url)
        };
        if let Some(t) = token {
            request = request.header("Authorization", format!("Bearer {t}"));
        }
        self.answer(path, request.send_json(body))
    }

    /// Creates a game, as the host (`host_token`; none on an open server).
    ///
    /// # Errors
    /// The server's refusal (not the host, a scenario that does not load there, a flood)
    /// or no server.
    pub fn create(
        &self,
        request: &CreateGame,
        host_token: Option<&str>,
    ) -> Result<Created, ClientError> {
        self.send("POST", "/games", host_token, request)
    }

    /// Every game on the server.
    ///
    /// # Errors
    /// No server.
    pub fn games(&self) -> Result<GameList, ClientError> {
        self.get("/games", None)
    }

    /// What the token's seat sees now.
    ///
    /// # Errors
    /// No such game, a bad token.
    pub fn view(&self, game: &str, token: &str) -> Result<SeatState, ClientError> {
        self.get(&format!("/games/{game}/view"), Some(token))
    }

    /// The public table.
    ///
    /// # Errors
    /// No such game, a bad token.
    pub fn table(&self, game: &str, token: &str) -> Result<Table, ClientError> {
        self.get(&format!("/games/{game}/table"), Some(token))
    }

    /// Sends an orders file.
    ///
    /// # Errors
    /// No such game, a bad token, a text that is not an orders file.
    pub fn orders(
        &self,
        game: &str,
        token: &str,
        file: &str,
        text: &str,
    ) -> Result<OrdersReply, ClientError> {
        let body = SendOrders {
            file: file.to_owned(),
            text: text.to_owned(),
        };
        self.send("POST", &format!("/games/{game}/orders"), Some(token), &body)
    }

    /// Takes back the last order.
    ///
    /// # Errors
    /// The seat may not.
    pub fn undo(
        &self,
        game: &str,
        token: &str,
        reason: Option<&str>,
    ) -> Result<SeatState, ClientError> {
        let body = Undo {
            reason: reason.map(str::to_owned),
        };
        self.send("POST", &format!("/games/{game}/undo"), Some(token), &body)
    }

    /// The chat after line `after`.
    ///
    /// # Errors
    /// No such game, a bad token.
    pub fn chat(&self, game: &str, token: &str, after: u64) -> Result<Chat, ClientError> {
        self.get(&format!("/games/{game}/chat?after={after}"), Some(token))
    }

    /// Says something in the game's chat.
    ///
    /// # Errors
    /// An empty or over-long line.
    pub fn say(&self, game: &str, token: &str, text: &str) -> Result<ChatLine, ClientError> {
        let body = Say {
            text: text.to_owned(),
        };
        self.send("POST", &format!("/games/{game}/chat"), Some(token), &body)
    }

    /// Sets or clears the seat's webhook.
    ///
    /// # Errors
    /// A URL the server does not call.
    pub fn webhook(&self, game: &str, token: &str, url: Option<&str>) -> Result<(), ClientError> {
        let body = Webhook {
            url: url.map(str::to_owned),
        };
        self.send::<_, serde_json::Value>(
            "PUT",
            &format!("/games/{game}/webhook"),
            Some(token),
            &body,
        )
        .map(|_| ())
    }

    /// The referee's save.
    ///
    /// # Errors
    /// Not the referee's token.
    pub fn save(&self, game: &str, token: &str) -> Result<serde_json::Value, ClientError> {
        self.get(&format!("/games/{game}/save"), Some(token))
    }
}

/// The play page's link for one seat (`http://HOST:PORT/play/GAME#token=TOKEN`): the token
/// rides in the fragment, which a browser never sends to the server, so it stays out of
/// every log on the way. `serve --create`, `remote create` and the editor's *Host game…*
/// all print this link.
#[must_use]
pub fn seat_link(base: &str, game: &str, token: &str) -> String {
    format!("{}/play/{game}#token={token}", base.trim_end_matches('/'))
}

/// Each seat of a created game with its link ([`seat_link`]): the sides first, then the
/// referee and the spectator.
#[must_use]
pub fn seat_links(created: &Created, base: &str) -> Vec<(String, String)> {
    let spare = ["referee", "spectator"];
    let sides = created
        .tokens
        .iter()
        .filter(|(s, _)| !spare.contains(&s.as_str()));
    let others = spare
        .iter()
        .filter_map(|s| created.tokens.get_key_value(*s));
    sides
        .chain(others)
        .map(|(seat, token)| (seat.clone(), seat_link(base, &created.game, token)))
        .collect()
}

/// A policy of the server's players in words for a person (`search, 1 s an order`,
/// `search, 200 iterations an order`, `greedy`): what the links `serve --create` and
/// `remote create` print, and the browser page, say of a seat the server plays.
#[must_use]
pub fn policy_words(policy: &str) -> String {
    use grognard_play::search::Budget;
    match grognard_play::PolicyKind::parse(policy) {
        Ok(grognard_play::PolicyKind::Search(Budget::Millis(ms))) if ms % 1000 == 0 => {
            format!("search, {} s an order", ms / 1000)
        }
        Ok(grognard_play::PolicyKind::Search(Budget::Millis(ms))) => {
            format!("search, {ms} ms an order")
        }
        Ok(grognard_play::PolicyKind::Search(Budget::Iterations(n))) => {
            format!("search, {n} iterations an order")
        }
        _ => policy.to_owned(),
    }
}

#[cfg(test)]
mod link_tests {
    use super::*;

    #[test]
    fn seat_links_put_the_sides_first_and_the_token_in_the_fragment() {
        let created = Created {
            game: "g1".to_owned(),
            tokens: [
                ("referee", "R"),
                ("austrians", "A"),
                ("spectator", "S"),
                ("french", "F"),
            ]
            .into_iter()
            .map(|(s, t)| (s.to_owned(), t.to_owned()))
            .collect(),
        };
        let links = seat_links(&created, "http://h:1/");
        let seats: Vec<&str> = links.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(seats, ["austrians", "french", "referee", "spectator"]);
        assert_eq!(links[1].1, "http://h:1/play/g1#token=F");
    }

    #[test]
    fn policies_in_words_say_the_search_budget() {
        assert_eq!(policy_words("search"), "search, 1 s an order");
        assert_eq!(policy_words("search:500"), "search, 500 ms an order");
        assert_eq!(
            policy_words("search:it=20"),
            "search, 20 iterations an order"
        );
        assert_eq!(policy_words("greedy"), "greedy");
        assert_eq!(policy_words("lua:ai.lua:choose"), "lua:ai.lua:choose");
    }
}
