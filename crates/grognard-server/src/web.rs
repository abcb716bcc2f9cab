//! The browser client `grognard serve` serves itself: the play page (`/play/{game}`, the
//! seat's token in the URL's fragment, so it never reaches the server in a URL), the host
//! page (`/host`), their scripts and style under `/web/`, and the scenarios the host page
//! offers (`/scenarios`). The files are plain ES modules in `crates/grognard-server/web/`,
//! built into the binary, so a server needs nothing beside itself. The pages speak only the
//! protocol of docs/server.md; every page carries a Content-Security-Policy that allows
//! scripts from this server alone (no inline script) and connections back to it alone.

use std::collections::BTreeMap;
use std::path::Path;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::protocol::CreateGame;

/// The pages' policy: this server's scripts, styles and connections only; no inline script
/// or style, no framing, no plugins, no form posts elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// One file of the client: its path under `/web/`, media type and bytes.
struct Asset {
    path: &'static str,
    media: &'static str,
    bytes: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the client, built into the binary.
const ASSETS: &[Asset] = &[
    Asset {
        path: "style.css",
        media: "text/css; charset=utf-8",
        bytes: include_bytes!("../web/style.css"),
    },
    Asset {
        path: "js/dom.js",
        media: JS,
        bytes: include_bytes!("../web/js/dom.js"),
    },
    Asset {
        path: "js/net.js",
        media: JS,
        bytes: include_bytes!("../web/js/net.js"),
    },
    Asset {
        path: "js/board.js",
        media: JS,
        bytes: include_bytes!("../web/js/board.js"),
    },
    Asset {
        path: "js/orders.js",
        media: JS,
        bytes: include_bytes!("../web/js/orders.js"),
    },
    Asset {
        path: "js/play.js",
        media: JS,
        bytes: include_bytes!("../web/js/play.js"),
    },
    Asset {
        path: "js/host.js",
        media: JS,
        bytes: include_bytes!("../web/js/host.js"),
    },
];

const PLAY_PAGE: &str = include_str!("../web/play.html");
const HOST_PAGE: &str = include_str!("../web/host.html");

/// The paths of every file the client is made of, under `/web/` (for tests and sizes).
pub fn asset_paths() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|a| a.path)
}

/// Headers every page and file of the client carries.
fn secured(mut response: Response, media: &'static str) -> Response {
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    // A new server build may change the client: pages and files are checked each time
    // (a 304 costs a round trip and no bytes).
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// A page: the HTML itself, the same for every game (the page reads the game from its
/// path and the token from its fragment).
fn page(html: &'static str) -> Response {
    secured(html.into_response(), "text/html; charset=utf-8")
}

/// `GET /play/{game}`.
pub async fn play_page() -> Response {
    page(PLAY_PAGE)
}

/// `GET /host`.
pub async fn host_page() -> Response {
    page(HOST_PAGE)
}

/// A version tag for the built-in files: a hash of their bytes, for `ETag`.
fn etag(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// `GET /web/{*path}`: one file of the client, or 404.
pub async fn asset(
    axum::extract::Path(path): axum::extract::Path<String>,
    headers: axum::http::HeaderMap,
) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.path == path) else {
        return (
            StatusCode::NOT_FOUND,
            axum::Json(crate::protocol::ErrorBody {
                error: format!("no such file: /web/{path}"),
                kind: None,
            }),
        )
            .into_response();
    };
    let tag = etag(asset.bytes);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        asset.bytes.into_response()
    };
    if let Ok(v) = HeaderValue::from_str(&tag) {
        response.headers_mut().insert(header::ETAG, v);
    }
    secured(response, asset.media)
}

/// A scenario the host page offers: gathered by `grognard serve` at its start, as
/// `remote create` would send it.
#[derive(Clone, Debug, Serialize)]
pub struct Offered {
    /// The scenario's name.
    pub name: String,
    /// Its description, if it has one.
    pub description: Option<String>,
    /// Its sides, in order.
    pub sides: Vec<String>,
    /// The ruleset's optional rules and whether each is on unless chosen otherwise.
    pub options: BTreeMap<String, bool>,
    /// The create request, files and all (sent by `GET /scenarios/{name}`).
    #[serde(skip)]
    pub request: CreateGame,
}

/// Gathers `scenario` for the host page.
///
/// # Errors
/// It does not load, or a file it needs cannot be read.
pub fn offer(scenario: &Path) -> Result<Offered, crate::bundle::GatherError> {
    let loaded = grognard_rules::load::load_scenario(scenario, None)
        .map_err(|d| crate::bundle::GatherError::Scenario(d.to_string()))?;
    let request = crate::bundle::gather(scenario, BTreeMap::new(), None, BTreeMap::new())?;
    Ok(Offered {
        name: loaded.spec.scenario.value.clone(),
        description: loaded.spec.description.clone(),
        sides: loaded.spec.sides.names().map(str::to_owned).collect(),
        options: loaded
            .ruleset
            .rules
            .options
            .iter()
            .map(|o| (o.name.clone(), o.default))
            .collect(),
        request,
    })
}

/// `GET /scenarios`'s answer.
#[derive(Debug, Serialize)]
pub struct OfferedList<'a> {
    /// The scenarios, in the order the server gathered them.
    pub scenarios: &'a [Offered],
}
