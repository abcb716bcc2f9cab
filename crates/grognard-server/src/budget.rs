//! What the server's games have used of its [`Limits`]: [`Usage`], which every live game
//! holds a clone of, counts the bytes they keep in the store ([`QuotaError`] when a quota
//! would be passed) and holds the policy budget.
//!
//! The CPU the server's own players (a seat's `random`, `greedy` or `lua:` policy) may
//! spend: [`PolicyBudget`] holds what each game's players have used and what all of them
//! used over the last hour, against [`Limits::policy_cpu_per_game`] and
//! [`Limits::policy_cpu_per_hour`]; [`Stopwatch`] measures a stretch of their play.
//!
//! The time is the game thread's CPU time where the platform gives it (Linux:
//! `CLOCK_THREAD_CPUTIME_ID`), so a busy host does not count other work against a game;
//! elsewhere it is the wall time on the game's own thread. What a game has used is kept
//! for the life of the server process (across a game being put away and loaded again),
//! not in the store: a restarted server starts every game's count from zero.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::config::Limits;

/// The server's hourly budget counts in slices of this length (so at most 60 are kept).
const SLICE: Duration = Duration::from_secs(60);
/// The window the hourly budget covers.
const HOUR: Duration = Duration::from_secs(3_600);

/// Why the server's players may not play now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spent {
    /// This game's players have used their whole budget.
    Game(Duration),
    /// Every game's players together have used the server's budget for the hour; it
    /// refills as the hour slides on.
    Hour(Duration),
}

impl Spent {
    /// The reason, as a game's status shows it.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            Self::Game(limit) => format!(
                "paused: the server's players have used the {} of CPU this game may spend on \
                 them; the sides they play give no more orders, and the host may raise the \
                 limit (policy_cpu_per_game) and restart the server",
                seconds(*limit)
            ),
            Self::Hour(limit) => format!(
                "paused: the server's players have used the {} of CPU all games may spend on \
                 them in an hour; they play again as it refills (any request to the game \
                 after that resumes it)",
                seconds(*limit)
            ),
        }
    }
}

/// A duration in words: `600 s`, `0.05 s`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// What the server's players have used.
#[derive(Debug, Default)]
struct Ledger {
    /// By game id, in all.
    games: HashMap<String, Duration>,
    /// Over every game: (the start of a slice, what was used in it), oldest first.
    slices: VecDeque<(Instant, Duration)>,
}

impl Ledger {
    /// Forgets the slices that have left the hour.
    fn trim(&mut self, now: Instant) {
        while self
            .slices
            .front()
            .is_some_and(|(start, _)| now.saturating_duration_since(*start) >= HOUR)
        {
            self.slices.pop_front();
        }
    }

    fn hour(&self) -> Duration {
        self.slices.iter().map(|(_, d)| *d).sum()
    }
}

/// One server's budget for its own players (shared by every game's thread).
#[derive(Debug)]
pub struct PolicyBudget {
    per_game: Duration,
    per_hour: Duration,
    ledger: Mutex<Ledger>,
}

impl PolicyBudget {
    /// A budget with `limits`' allowances and nothing used.
    #[must_use]
    pub fn new(limits: &Limits) -> Self {
        Self {
            per_game: limits.policy_cpu_per_game,
            per_hour: limits.policy_cpu_per_hour,
            ledger: Mutex::new(Ledger::default()),
        }
    }

    /// Why game `id`'s players may not play now, or `None` when they may.
    #[must_use]
    pub fn spent(&self, id: &str) -> Option<Spent> {
        let Ok(mut ledger) = self.ledger.lock() else {
            // A thread panicked holding the ledger: stop the players rather than let them
            // run unmetered.
            return Some(Spent::Hour(self.per_hour));
        };
        if ledger.games.get(id).is_some_and(|d| *d >= self.per_game) {
            return Some(Spent::Game(self.per_game));
        }
        ledger.trim(Instant::now());
        (ledger.hour() >= self.per_hour).then_some(Spent::Hour(self.per_hour))
    }

    /// Counts `used` against game `id` and the hour.
    pub fn charge(&self, id: &str, used: Duration) {
        let Ok(mut ledger) = self.ledger.lock() else {
            return;
        };
        *ledger.games.entry(id.to_owned()).or_default() += used;
        let now = Instant::now();
        ledger.trim(now);
        match ledger.slices.back_mut() {
            Some((start, d)) if now.saturating_duration_since(*start) < SLICE => *d += used,
            _ => ledger.slices.push_back((now, used)),
        }
    }

    /// What game `id`'s players have used so far.
    #[must_use]
    pub fn used(&self, id: &str) -> Duration {
        self.ledger
            .lock()
            .ok()
            .and_then(|l| l.games.get(id).copied())
            .unwrap_or_default()
    }
}

/// Measures the CPU time (see the module doc) the calling thread spends from its start.
#[derive(Debug)]
pub struct Stopwatch {
    cpu: Option<Duration>,
    wall: Instant,
}

impl Stopwatch {
    /// Starts measuring on this thread.
    #[must_use]
    pub fn start() -> Self {
        Self {
            cpu: thread_cpu(),
            wall: Instant::now(),
        }
    }

    /// The time spent since the start, on the same thread.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        match (self.cpu, thread_cpu()) {
            (Some(before), Some(now)) => now.saturating_sub(before),
            _ => self.wall.elapsed(),
        }
    }
}

/// The calling thread's CPU time, where the platform says it.
#[cfg(target_os = "linux")]
fn thread_cpu() -> Option<Duration> {
    use rustix::time::{ClockId, clock_gettime};
    let t = clock_gettime(ClockId::ThreadCPUTime);
    let secs = u64::try_from(t.tv_sec).ok()?;
    let nanos = u32::try_from(t.tv_nsec).ok()?;
    Some(Duration::new(secs, nanos))
}

/// The calling thread's CPU time: not asked for here (the wall time stands in).
#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> Option<Duration> {
    None
}

/// Which store quota a game would pass ([`Usage::store`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotaError {
    /// The game's own: it holds `held` bytes, and may hold `most`.
    Game {
        /// Bytes the game holds now.
        held: u64,
        /// [`Limits::store_bytes_per_game`].
        most: u64,
    },
    /// The server's, over every game.
    Server {
        /// [`Limits::store_bytes_total`].
        most: u64,
    },
}

impl std::fmt::Display for QuotaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Game { held, most } => write!(
                f,
                "the game holds {held} bytes in the server's store; a game may hold {most}"
            ),
            Self::Server { most } => write!(
                f,
                "the server's store is full ({most} bytes); it takes nothing more"
            ),
        }
    }
}

impl std::error::Error for QuotaError {}

/// The limits, and what every game of the server has used of them so far: each live game
/// holds a clone and counts its own use here.
#[derive(Clone, Debug)]
pub struct Usage {
    /// The limits.
    pub limits: Limits,
    /// Bytes every game together holds in the store.
    pub stored_bytes: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// The CPU time the server's own players have used, per game and per hour.
    pub policy_cpu: std::sync::Arc<PolicyBudget>,
}

impl Usage {
    /// Counts `bytes` more for a game that holds `game_bytes` already, if both the game's
    /// quota and the server's allow it.
    ///
    /// # Errors
    /// Which quota it would pass.
    pub fn store(&self, game_bytes: u64, bytes: u64) -> Result<(), QuotaError> {
        use std::sync::atomic::Ordering;
        if game_bytes + bytes > self.limits.store_bytes_per_game {
            return Err(QuotaError::Game {
                held: game_bytes,
                most: self.limits.store_bytes_per_game,
            });
        }
        let total = self.stored_bytes.load(Ordering::Relaxed);
        if total + bytes > self.limits.store_bytes_total {
            return Err(QuotaError::Server {
                most: self.limits.store_bytes_total,
            });
        }
        self.stored_bytes.fetch_add(bytes, Ordering::Relaxed);
        Ok(())
    }

    /// Gives back bytes counted by [`Usage::store`] that were not stored after all.
    pub fn unstore(&self, bytes: u64) {
        self.stored_bytes
            .fetch_sub(bytes, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(game_ms: u64, hour_ms: u64) -> Limits {
        Limits {
            policy_cpu_per_game: Duration::from_millis(game_ms),
            policy_cpu_per_hour: Duration::from_millis(hour_ms),
            ..Limits::default()
        }
    }

    #[test]
    fn a_game_stops_at_its_own_budget_and_the_server_at_the_hours() {
        let budget = PolicyBudget::new(&limits(100, 250));
        assert_eq!(budget.spent("a"), None);
        budget.charge("a", Duration::from_millis(60));
        assert_eq!(budget.spent("a"), None);
        budget.charge("a", Duration::from_millis(40));
        assert_eq!(
            budget.spent("a"),
            Some(Spent::Game(Duration::from_millis(100)))
        );
        // Another game still has its own budget, until the hour's is gone.
        assert_eq!(budget.spent("b"), None);
        budget.charge("b", Duration::from_millis(99));
        assert_eq!(budget.spent("b"), None);
        budget.charge("c", Duration::from_millis(60));
        assert_eq!(
            budget.spent("b"),
            Some(Spent::Hour(Duration::from_millis(250)))
        );
        assert_eq!(budget.used("a"), Duration::from_millis(100));
        assert!(
            Spent::Game(Duration::from_secs(600))
                .reason()
                .contains("600 s")
        );
        assert!(
            Spent::Hour(Duration::from_millis(50))
                .reason()
                .contains("0.05 s")
        );
    }

    #[test]
    fn the_stopwatch_counts_work_on_this_thread() {
        // Work until the stopwatch has counted 20 ms (on a busy machine this thread may get
        // less than the wall time), within 10 s of wall time.
        let started = Instant::now();
        let watch = Stopwatch::start();
        let mut x = 0u64;
        while watch.elapsed() < Duration::from_millis(20)
            && started.elapsed() < Duration::from_secs(10)
        {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        assert!(x > 0);
        let (used, wall) = (watch.elapsed(), started.elapsed());
        assert!(used >= Duration::from_millis(20), "{used:?} in {wall:?}");
        // A thread's time never runs ahead of the clock on the wall.
        assert!(
            used <= wall + Duration::from_millis(5),
            "{used:?} in {wall:?}"
        );
    }
}
