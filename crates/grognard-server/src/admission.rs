//! Who may create a game, and how often: the host token (or an open server), and the
//! creation limits over a sliding minute — in all, and per client address on an open
//! server. Everything here is decided before a create request's files are even parsed.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use crate::config::{Access, Config};
use crate::tokens;

/// The window the creation limits count over.
const WINDOW: Duration = Duration::from_secs(60);

/// Why a create request is not admitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No host token, or the wrong one (HTTP 401).
    NotHost(String),
    /// Over a creation limit (HTTP 429).
    TooMany(String),
}

/// Creation times over the last minute.
#[derive(Debug, Default)]
struct Window(VecDeque<Instant>);

impl Window {
    /// How many in the minute before `now`, after dropping older ones.
    fn count(&mut self, now: Instant) -> usize {
        while self
            .0
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            self.0.pop_front();
        }
        self.0.len()
    }
}

/// The creation limits of one server, counted as requests arrive.
#[derive(Debug)]
pub struct Admission {
    access: Access,
    per_minute: usize,
    per_address: usize,
    all: Window,
    by_address: HashMap<IpAddr, Window>,
}

impl Admission {
    /// The admission rules of a server set up as `config` says.
    #[must_use]
    pub fn new(config: &Config) -> Self {
        Self {
            access: config.access.clone(),
            per_minute: config.limits.creates_per_minute,
            per_address: config.limits.creates_per_address,
            all: Window::default(),
            by_address: HashMap::new(),
        }
    }

    /// Admits one create request carrying `token` (the bearer token, if any) from `from`
    /// (the client's address, if known), at `now`; an admitted request counts against the
    /// limits whatever becomes of it, since loading a game is the work being limited.
    ///
    /// # Errors
    /// Not the host, or over a limit.
    pub fn admit(
        &mut self,
        token: Option<&str>,
        from: Option<IpAddr>,
        now: Instant,
    ) -> Result<(), Refusal> {
        if let Access::Host { token_hash } = &self.access {
            let given = token.map(tokens::hash).unwrap_or_default();
            if !bool::from(subtle::ConstantTimeEq::ct_eq(given.as_slice(), token_hash)) {
                return Err(Refusal::NotHost(
                    "creating a game needs the host token: `Authorization: Bearer HOST_TOKEN` (printed by `grognard serve` at its start)".into(),
                ));
            }
        }
        if self.all.count(now) >= self.per_minute {
            return Err(Refusal::TooMany(format!(
                "too many new games: at most {} a minute on this server",
                self.per_minute
            )));
        }
        if self.access == Access::Open
            && let Some(ip) = from
        {
            // Forget addresses that made no game this minute, so the map stays small.
            if self.by_address.len() > 4 * self.per_minute.max(1) {
                self.by_address.retain(|_, w| w.count(now) > 0);
            }
            let window = self.by_address.entry(ip).or_default();
            if window.count(now) >= self.per_address {
                return Err(Refusal::TooMany(format!(
                    "too many new games from your address: at most {} a minute",
                    self.per_address
                )));
            }
            window.0.push_back(now);
        }
        self.all.0.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Limits;

    fn config(access: Access) -> Config {
        let mut c = Config::new("127.0.0.1:0", "g.sqlite", "host-secret");
        c.access = access;
        c.limits = Limits {
            creates_per_minute: 5,
            creates_per_address: 2,
            ..Limits::default()
        };
        c
    }

    #[test]
    fn only_the_host_token_creates_on_a_hosted_server() {
        let mut a = Admission::new(&config(Access::Host {
            token_hash: tokens::hash("host-secret"),
        }));
        let now = Instant::now();
        assert!(matches!(a.admit(None, None, now), Err(Refusal::NotHost(_))));
        assert!(matches!(
            a.admit(Some("host-secre"), None, now),
            Err(Refusal::NotHost(_))
        ));
        assert!(matches!(
            a.admit(Some(""), None, now),
            Err(Refusal::NotHost(_))
        ));
        assert_eq!(a.admit(Some("host-secret"), None, now), Ok(()));
    }

    #[test]
    fn at_most_the_limit_in_any_minute() {
        let mut a = Admission::new(&config(Access::Host {
            token_hash: tokens::hash("t"),
        }));
        let start = Instant::now();
        for i in 0..5 {
            assert_eq!(a.admit(Some("t"), None, start), Ok(()), "{i}");
        }
        assert!(matches!(
            a.admit(Some("t"), None, start + Duration::from_secs(59)),
            Err(Refusal::TooMany(_))
        ));
        // A minute after the first five, five more.
        let later = start + WINDOW;
        for _ in 0..5 {
            assert_eq!(a.admit(Some("t"), None, later), Ok(()));
        }
        assert!(a.admit(Some("t"), None, later).is_err());
    }

    #[test]
    fn an_open_server_limits_each_address_and_the_whole() {
        let mut a = Admission::new(&config(Access::Open));
        let now = Instant::now();
        let one: IpAddr = "192.0.2.1".parse().unwrap();
        let two: IpAddr = "192.0.2.2".parse().unwrap();
        let three: IpAddr = "192.0.2.3".parse().unwrap();
        assert_eq!(a.admit(None, Some(one), now), Ok(()));
        assert_eq!(a.admit(None, Some(one), now), Ok(()));
        assert!(matches!(
            a.admit(None, Some(one), now),
            Err(Refusal::TooMany(m)) if m.contains("your address")
        ));
        assert_eq!(a.admit(None, Some(two), now), Ok(()));
        assert_eq!(a.admit(None, Some(two), now), Ok(()));
        assert_eq!(a.admit(None, Some(three), now), Ok(()));
        // Five in all: the server's own limit holds whoever asks.
        assert!(matches!(
            a.admit(None, Some(three), now),
            Err(Refusal::TooMany(m)) if m.contains("this server")
        ));
    }
}
