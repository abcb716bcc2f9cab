//! Webhooks: a side's seat may give an `http://` URL that the server calls (a POST with a
//! small JSON body) when it becomes that side's turn, so a player away for days hears of
//! it. This module owns the rules a webhook URL must meet and the call itself; it knows
//! nothing of games: its caller hands it a game's id, status and URLs.
//!
//! A webhook is a request the server makes on a seat's behalf, so it must not become a way
//! into the host's own network: an address that is loopback, private, shared (CGNAT),
//! link-local, unspecified, multicast, broadcast or reserved — in any spelling, IPv4-mapped
//! IPv6 included — is refused, unless the host started the server with
//! `--allow-local-webhooks`. The address is checked after the name is resolved, at call
//! time, and the call connects to that checked address itself, so a name whose answer
//! changes between check and connection gains nothing. URLs with a user name or password
//! are refused, and a redirect is never followed (a 3xx answer is a failure). A call runs on
//! a thread of its own, takes at most [`TIMEOUT`] in all, and a failure is logged on the
//! server's stderr and changes nothing in the game.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::protocol::Status;

/// Longest webhook URL.
const MAX_URL_CHARS: usize = 2_000;

/// How long a webhook call may take in all: resolving, connecting, sending, answering.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// Longest status line read from the answer.
const MAX_STATUS_LINE: usize = 1_024;

/// Why a webhook URL is refused, or a call failed. A seat that sets a refused URL is
/// answered 400 with this text (`Live::set_webhook`); a failed call is only logged on the
/// server's stderr. The texts name the URL and the host as the seat gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WebhookError {
    /// Longer than `MAX_URL_CHARS`.
    TooLong,
    /// Spaces, control characters or backslashes.
    Unsafe,
    /// Not ASCII.
    NotAscii,
    /// Not an `http://` URL.
    NotHttp(String),
    /// A user name or password in the URL.
    UserInfo(String),
    /// No host, or one a resolver would read differently.
    NoHost(String),
    /// A port that is not one.
    BadPort {
        /// The URL.
        url: String,
        /// The port as written.
        port: String,
    },
    /// A literal address (or `localhost`) in a range webhooks may not call.
    Local {
        /// The URL.
        url: String,
        /// The range, in words (`a loopback address`).
        why: &'static str,
    },
    /// The host's name does not resolve.
    Unresolved {
        /// The host.
        host: String,
        /// The resolver's reason.
        why: String,
    },
    /// The host's name resolves to no address.
    NoAddress(String),
    /// The host's name resolves to an address webhooks may not call.
    LocalAddress {
        /// The host.
        host: String,
        /// The range, in words.
        why: &'static str,
        /// The address.
        ip: IpAddr,
    },
    /// No answer within [`TIMEOUT`].
    Timeout,
    /// No address of the host took the connection.
    Connect {
        /// The last address tried.
        addr: SocketAddr,
        /// The system's reason.
        why: String,
    },
    /// Sending or reading failed.
    Io(String),
    /// The answer is not an HTTP status line.
    NotHttpAnswer,
    /// A 3xx answer: a redirect, which is not followed.
    Redirect(u16),
    /// Any other answer that is not 2xx.
    Answered(u16),
}

impl std::fmt::Display for WebhookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLong => write!(f, "a webhook URL has at most {MAX_URL_CHARS} characters"),
            Self::Unsafe => {
                f.write_str("a webhook URL has no spaces, control characters or backslashes")
            }
            Self::NotAscii => f.write_str("a webhook URL is ASCII (percent-encode anything else)"),
            Self::NotHttp(url) => write!(
                f,
                "webhook `{url}`: only http:// URLs are called (put a relay in front for https)"
            ),
            Self::UserInfo(url) => write!(
                f,
                "webhook `{url}`: a user name or password in the URL is not sent; put a secret in the path instead"
            ),
            Self::NoHost(url) => write!(f, "webhook `{url}` names no host"),
            Self::BadPort { url, port } => write!(f, "webhook `{url}`: `{port}` is not a port"),
            Self::Local { url, why } => write!(
                f,
                "webhook `{url}`: {why}; webhooks call only public addresses unless the server runs with --allow-local-webhooks"
            ),
            Self::Unresolved { host, why } => write!(f, "`{host}` does not resolve: {why}"),
            Self::NoAddress(host) => write!(f, "`{host}` has no address"),
            Self::LocalAddress { host, why, ip } => {
                write!(f, "`{host}` is {why} ({ip}), which webhooks may not call")
            }
            Self::Timeout => write!(f, "no answer within {} s", TIMEOUT.as_secs()),
            Self::Connect { addr, why } => write!(f, "cannot connect to {addr}: {why}"),
            Self::Io(why) => write!(f, "the call failed: {why}"),
            Self::NotHttpAnswer => f.write_str("the answer is not HTTP"),
            Self::Redirect(code) => write!(f, "answered {code}: a redirect, which is not followed"),
            Self::Answered(code) => write!(f, "answered {code}"),
        }
    }
}

impl std::error::Error for WebhookError {}

/// A webhook URL taken apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The host as written (brackets kept for IPv6), for the `Host` header.
    pub authority: String,
    /// The host to resolve (no brackets).
    pub host: String,
    /// The port (80 unless given).
    pub port: u16,
    /// The path and query, from `/`.
    pub path: String,
}

/// Takes a webhook URL apart.
///
/// # Errors
/// Not a plain `http://` URL: too long, another scheme, a user name or password, no host,
/// a bad port, or characters a request line cannot carry.
pub fn parse(url: &str) -> Result<Target, WebhookError> {
    if url.chars().count() > MAX_URL_CHARS {
        return Err(WebhookError::TooLong);
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return Err(WebhookError::Unsafe);
    }
    if !url.is_ascii() {
        return Err(WebhookError::NotAscii);
    }
    let rest = url
        .get(..7)
        .filter(|s| s.eq_ignore_ascii_case("http://"))
        .map(|_| &url[7..])
        .ok_or_else(|| WebhookError::NotHttp(url.to_owned()))?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    if authority.contains('@') {
        return Err(WebhookError::UserInfo(url.to_owned()));
    }
    let (host, port) = split_port(authority).ok_or_else(|| WebhookError::NoHost(url.to_owned()))?;
    let port = match port {
        None => 80,
        Some(p) => {
            p.parse::<u16>()
                .ok()
                .filter(|p| *p != 0)
                .ok_or_else(|| WebhookError::BadPort {
                    url: url.to_owned(),
                    port: p.to_owned(),
                })?
        }
    };
    let tail = tail.split('#').next().unwrap_or_default();
    let path = if tail.starts_with('/') {
        tail.to_owned()
    } else {
        format!("/{tail}")
    };
    Ok(Target {
        authority: authority.to_owned(),
        host,
        port,
        path,
    })
}

/// Splits `host[:port]` or `[v6][:port]`; the host must be a name, an IPv4 spelling or a
/// bracketed IPv6 address, with nothing a resolver would read differently.
fn split_port(authority: &str) -> Option<(String, Option<&str>)> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let v6: Ipv6Addr = inside.parse().ok()?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (v6.to_string(), port)
    } else {
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        };
        let name_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_';
        if host.is_empty() || !host.chars().all(name_char) {
            return None;
        }
        (host.to_owned(), port)
    };
    // Digits only: `u16::from_str` would take a leading `+`.
    if port.is_some_and(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    Some((host, port))
}

/// Reads an IPv4 address the way `inet_aton` (and so the system's resolver) does: one to
/// four parts, each decimal, `0x` hexadecimal or `0` octal, the last filling the bytes left
/// (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`). A trailing dot is allowed.
#[must_use]
pub fn ipv4_spelling(host: &str) -> Option<Ipv4Addr> {
    let host = host.strip_suffix('.').unwrap_or(host);
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut values = Vec::with_capacity(parts.len());
    for part in &parts {
        let (digits, radix) =
            if let Some(h) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
                (h, 16)
            } else if part.len() > 1 && part.starts_with('0') {
                (&part[1..], 8)
            } else {
                (*part, 10)
            };
        if digits.is_empty() && radix != 16 {
            return None;
        }
        let value = if digits.is_empty() {
            0
        } else if digits.chars().all(|c| c.is_digit(radix)) {
            u64::from_str_radix(digits, radix).ok()?
        } else {
            return None;
        };
        values.push(value);
    }
    let (last, leading) = values.split_last()?;
    if leading.iter().any(|v| *v > 255) {
        return None;
    }
    let room = 8 * (4 - leading.len() as u32);
    if *last >= 1u64 << room {
        return None;
    }
    let mut n: u64 = 0;
    for (i, v) in leading.iter().enumerate() {
        n |= v << (24 - 8 * i as u32);
    }
    n |= last;
    u32::try_from(n).ok().map(Ipv4Addr::from)
}

/// Why a webhook may not call `ip` (none: it is a public address).
#[must_use]
pub fn refused_range(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    if ip.is_loopback() {
        Some("a loopback address")
    } else if ip.is_unspecified() || a == 0 {
        Some("an unspecified address")
    } else if ip.is_private() {
        Some("a private address")
    } else if a == 100 && (64..128).contains(&b) {
        Some("a shared (CGNAT) address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if ip.is_broadcast() {
        Some("the broadcast address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if a >= 240 {
        Some("a reserved address")
    } else if a == 198 && (b & 0xfe) == 18 {
        Some("a benchmarking address (198.18/15)")
    } else if (a, b, c) == (192, 0, 0) {
        Some("an IETF protocol address (192.0.0/24)")
    } else if matches!((a, b, c), (192, 0, 2) | (198, 51, 100) | (203, 0, 113)) {
        Some("a documentation address (TEST-NET)")
    } else {
        None
    }
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    if ip.is_loopback() {
        return Some("a loopback address");
    }
    if ip.is_unspecified() {
        return Some("an unspecified address");
    }
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d)
    // and 6to4 (2002:aabb:ccdd::) addresses carry an IPv4 address that is judged as one.
    let embedded = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    if s[..5] == [0; 5] && (s[5] == 0xffff || s[5] == 0) {
        return refused_v4(embedded(s[6], s[7]));
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return refused_v4(embedded(s[6], s[7]));
    }
    if s[0] == 0x2002 {
        return refused_v4(embedded(s[1], s[2]));
    }
    // IPv4-translated (::ffff:0:a.b.c.d) and local-use NAT64 (64:ff9b:1::/48) carry one too.
    if s[..4] == [0; 4] && s[4] == 0xffff && s[5] == 0 {
        return refused_v4(embedded(s[6], s[7]));
    }
    if s[..3] == [0x64, 0xff9b, 1] {
        return Some("a local-use NAT64 address");
    }
    if s[0] == 0x2001 && s[1] == 0 {
        return Some("a Teredo tunnel address (2001::/32)");
    }
    if s[0] == 0x2001 && s[1] == 0x0db8 {
        return Some("a documentation address (2001:db8::/32)");
    }
    if s[..4] == [0x100, 0, 0, 0] {
        return Some("a discard-only address (100::/64)");
    }
    if s[0] & 0xfe00 == 0xfc00 {
        Some("a unique local (private) address")
    } else if s[0] & 0xffc0 == 0xfe80 {
        Some("a link-local address")
    } else if s[0] & 0xffc0 == 0xfec0 {
        Some("a site-local address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else {
        None
    }
}

/// Checks a webhook URL when a seat sets it: its form, and a literal address in a refused
/// range (a name is checked when it is called, once resolved).
///
/// # Errors
/// As [`parse`], or a literal address a webhook may not call.
pub fn check_url(url: &str, allow_local: bool) -> Result<(), WebhookError> {
    let target = parse(url)?;
    if allow_local {
        return Ok(());
    }
    let literal = target
        .host
        .parse::<IpAddr>()
        .ok()
        .or_else(|| ipv4_spelling(&target.host).map(IpAddr::V4));
    let name = target.host.trim_end_matches('.').to_ascii_lowercase();
    let why = literal.and_then(refused_range).or_else(|| {
        (name == "localhost" || name.ends_with(".localhost")).then_some("a loopback address")
    });
    match why {
        Some(why) => Err(WebhookError::Local {
            url: url.to_owned(),
            why,
        }),
        None => Ok(()),
    }
}

/// Resolves a target's host and checks every address it has: all of them must be public
/// (unless `allow_local`), so a name cannot mix a public answer with a local one.
///
/// # Errors
/// The name does not resolve, or one of its addresses may not be called.
pub fn resolve(target: &Target, allow_local: bool) -> Result<Vec<SocketAddr>, WebhookError> {
    let addrs: Vec<SocketAddr> = (target.host.as_str(), target.port)
        .to_socket_addrs()
        .map_err(|e| WebhookError::Unresolved {
            host: target.host.clone(),
            why: e.to_string(),
        })?
        .collect();
    if addrs.is_empty() {
        return Err(WebhookError::NoAddress(target.host.clone()));
    }
    if !allow_local {
        for a in &addrs {
            if let Some(why) = refused_range(a.ip()) {
                return Err(WebhookError::LocalAddress {
                    host: target.host.clone(),
                    why,
                    ip: a.ip(),
                });
            }
        }
    }
    Ok(addrs)
}

/// Calls a webhook: resolves and checks its host, connects to a checked address, POSTs
/// `body` and reads the status line. Returns the status code of a 2xx answer.
///
/// # Errors
/// A refused URL or address, a connection that fails or times out, or an answer that is not
/// 2xx (a redirect included: it is not followed).
pub fn call(url: &str, body: &serde_json::Value, allow_local: bool) -> Result<u16, WebhookError> {
    let deadline = Instant::now() + TIMEOUT;
    let target = parse(url)?;
    let addrs = resolve(&target, allow_local)?;
    let left = || {
        deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or(WebhookError::Timeout)
    };
    let mut stream = None;
    // `resolve` gave at least one address, so a failed loop has an error to report.
    let mut last_error = WebhookError::NoAddress(target.host.clone());
    for addr in &addrs {
        match TcpStream::connect_timeout(addr, left()?) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => {
                last_error = WebhookError::Connect {
                    addr: *addr,
                    why: e.to_string(),
                };
            }
        }
    }
    let mut stream = stream.ok_or(last_error)?;
    let body = body.to_string();
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: grognard-serve\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        target.path,
        target.authority,
        body.len()
    );
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => WebhookError::Timeout,
        _ => WebhookError::Io(e.to_string()),
    };
    stream.set_write_timeout(Some(left()?)).map_err(io)?;
    stream.write_all(request.as_bytes()).map_err(io)?;
    let mut line = Vec::new();
    let mut buf = [0u8; 256];
    while !line.windows(2).any(|w| w == b"\r\n") && line.len() < MAX_STATUS_LINE {
        stream.set_read_timeout(Some(left()?)).map_err(io)?;
        let n = stream.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        line.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&line);
    let code = line
        .lines()
        .next()
        .filter(|l| l.starts_with("HTTP/1."))
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or(WebhookError::NotHttpAnswer)?;
    match code {
        200..=299 => Ok(code),
        300..=399 => Err(WebhookError::Redirect(code)),
        _ => Err(WebhookError::Answered(code)),
    }
}

/// Calls the webhook of every side whose turn it has become (in `after`, not in `before`)
/// in game `game`, now at `status`; `urls` maps seats to their webhooks.
pub fn notify(
    game: &str,
    status: &Status,
    urls: &BTreeMap<String, String>,
    (before, after): (&[String], &[String]),
    allow_local: bool,
) {
    for side in after.iter().filter(|s| !before.contains(s)) {
        let Some(url) = urls.get(side) else {
            continue;
        };
        let body = json!({
            "game": game,
            "seat": side,
            "turn": status.turn,
            "phase": status.phase,
            "to_act": status.to_act,
        });
        let url = url.clone();
        let _ = std::thread::Builder::new()
            .name("webhook".into())
            .spawn(move || {
                if let Err(e) = call(&url, &body, allow_local) {
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
        assert!(check_url("http://93.184.215.14:9/turn", false).is_ok());
        assert!(check_url("http://example.com/turn?k=1", false).is_ok());
        for bad in [
            "https://x",
            "ftp://x",
            "http://",
            "http:///x",
            "http://a b",
            "http://x:0/",
            "http://x:+80/",
            "http://x:/",
            "http://x:99999/",
            "http://[fe80::1%25eth0]/",
            "http://ex\\ample.com/",
            "http://exämple.com/",
            "http://x/\u{1b}",
        ] {
            assert!(check_url(bad, true).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_url_is_taken_apart_for_the_request_line() {
        let t = parse("HTTP://[::1]:8080?x=1#frag").unwrap();
        assert_eq!(
            t,
            Target {
                authority: "[::1]:8080".into(),
                host: "::1".into(),
                port: 8080,
                path: "/?x=1".into()
            }
        );
        let t = parse("http://hooks.example.org/a/b").unwrap();
        assert_eq!((t.port, t.path.as_str()), (80, "/a/b"));
    }

    #[test]
    fn userinfo_is_refused_even_where_local_calls_are_allowed() {
        for bad in [
            "http://user:pass@example.com/",
            "http://user@example.com/",
            "http://:@example.com/",
            "http://example.com@127.0.0.1/",
        ] {
            let e = check_url(bad, true).unwrap_err();
            assert!(matches!(e, WebhookError::UserInfo(_)), "{bad}: {e}");
            assert!(
                e.to_string().contains("user name or password"),
                "{bad}: {e}"
            );
        }
        // An `@` after the host is part of the path, not userinfo.
        assert!(check_url("http://example.com/a@b", false).is_ok());
    }

    #[test]
    fn every_ipv4_spelling_is_read_as_the_resolver_reads_it() {
        let lo = Some(Ipv4Addr::LOCALHOST);
        for s in [
            "127.0.0.1",
            "127.1",
            "127.0.1",
            "2130706433",
            "0x7f000001",
            "0X7F.1",
            "0177.0.0.1",
            "127.0.0.1.",
        ] {
            assert_eq!(ipv4_spelling(s), lo, "{s}");
        }
        assert_eq!(ipv4_spelling("0"), Some(Ipv4Addr::UNSPECIFIED));
        for s in [
            "256.0.0.1",
            "1.2.3.4.5",
            "example.com",
            "08.1.1.1",
            "",
            "1.2.65536",
        ] {
            assert_eq!(ipv4_spelling(s), None, "{s}");
        }
    }

    #[test]
    fn refused_ranges_cover_every_local_kind() {
        let refused = [
            "127.0.0.1",
            "127.255.0.9",
            "0.0.0.0",
            "0.1.2.3",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "100.127.255.254",
            "169.254.169.254",
            "224.0.0.1",
            "239.255.255.250",
            "255.255.255.255",
            "240.0.0.1",
            "::1",
            "::",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::7f00:1",
            "2002:c0a8:0101::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            // Special-purpose ranges an outside audit found accepted.
            "198.18.0.1",
            "198.19.255.255",
            "192.0.0.1",
            "192.0.2.1",
            "198.51.100.1",
            "203.0.113.1",
            "2001:db8::1",
            "2001::1",
            "100::1",
            "::ffff:0:7f00:1",
            "64:ff9b:1::7f00:1",
        ];
        for s in refused {
            let ip: IpAddr = s.parse().unwrap();
            assert!(refused_range(ip).is_some(), "{s} must be refused");
        }
        for s in [
            "93.184.215.14",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "192.169.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "198.20.0.1",
            "192.0.3.1",
            "2001:4860::8888",
        ] {
            let ip: IpAddr = s.parse().unwrap();
            assert_eq!(refused_range(ip), None, "{s} is public");
        }
    }

    #[test]
    fn literal_local_addresses_are_refused_when_set() {
        for host in [
            "127.0.0.1",
            "127.1",
            "0x7f000001",
            "2130706433",
            "0.0.0.0",
            "0",
            "[::1]",
            "[::ffff:127.0.0.1]",
            "[::ffff:7f00:1]",
            "10.0.0.1",
            "169.254.169.254",
            "localhost",
            "LocalHost.",
            "api.localhost",
        ] {
            let url = format!("http://{host}:22/");
            let e = check_url(&url, false).unwrap_err();
            assert!(matches!(e, WebhookError::Local { .. }), "{url}: {e}");
            assert!(
                e.to_string().contains("--allow-local-webhooks"),
                "{url}: {e}"
            );
            assert!(check_url(&url, true).is_ok(), "{url} on a club's LAN");
        }
    }

    #[test]
    fn resolved_addresses_are_checked_in_every_spelling() {
        // These go through the system's resolver (getaddrinfo reads the inet_aton
        // spellings), so a name or spelling the text check missed is still caught.
        for host in [
            "127.0.0.1",
            "0x7f000001",
            "2130706433",
            "127.1",
            "0.0.0.0",
            "::1",
            "::ffff:127.0.0.1",
            "localhost",
        ] {
            let target = Target {
                authority: host.into(),
                host: host.into(),
                port: 9,
                path: "/".into(),
            };
            let addrs = resolve(&target, true).expect("resolves");
            assert!(
                addrs.iter().all(|a| refused_range(a.ip()).is_some()),
                "{host} resolved to {addrs:?}"
            );
            let e = resolve(&target, false).unwrap_err();
            assert!(
                matches!(e, WebhookError::LocalAddress { .. }),
                "{host}: {e}"
            );
            assert!(e.to_string().contains("may not call"), "{host}: {e}");
        }
        let lo = Target {
            authority: "0x7f000001".into(),
            host: "0x7f000001".into(),
            port: 9,
            path: "/".into(),
        };
        assert_eq!(
            resolve(&lo, true).unwrap()[0].ip(),
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            "getaddrinfo reads 0x7f000001 as 127.0.0.1"
        );
    }
}
