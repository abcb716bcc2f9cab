//! The HTTP API and the WebSocket of `grognard serve` (axum on tokio). Every per-game
//! request carries a seat's token (`Authorization: Bearer TOKEN`; on the WebSocket, the
//! first message); every answer is JSON, an error as `{"error": "..."}` with a status
//! that says what kind (see `docs/server.md`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde::Deserialize;
use tokio::sync::Mutex as AsyncMutex;

use crate::admission::{Admission, Refusal};
use crate::game::Problem;
use crate::hub::{Hub, HubError};
use crate::protocol::{
    Chat, ClientMessage, CreateGame, ErrorBody, GameList, MAX_BODY_BYTES, MAX_ORDERS_BYTES,
    MAX_WS_MESSAGE_BYTES, Say, SendOrders, ServerMessage, Undo, WS_BURST, WS_PER_SECOND, Webhook,
};
use crate::seat::Seat;

/// Most WebSocket connections a server holds at once.
pub const MAX_CONNECTIONS: usize = 4_096;

/// The WebSocket read buffer.
const READ_BUFFER_BYTES: usize = 8 << 10;

/// How long a closing connection waits for the client's side of the close.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// How long a new WebSocket has to say `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// What every handler shares.
#[derive(Clone)]
struct App {
    hub: Arc<Hub>,
    creates: Arc<AsyncMutex<Admission>>,
    connections: Arc<tokio::sync::Semaphore>,
}

/// A token bucket: `burst` at once, refilled at `rate` a second.
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    burst: f64,
    rate: f64,
    at: Instant,
}

impl Bucket {
    fn new(burst: u32, rate: f64) -> Self {
        Self {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            rate,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// An error answer: its status, its words, and for an order the game refused, why in a
/// word (`ErrorBody::kind`).
struct ApiError {
    status: StatusCode,
    message: String,
    kind: Option<String>,
}

impl ApiError {
    fn new(status: StatusCode, message: String) -> Self {
        Self {
            status,
            message,
            kind: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
            kind: self.kind,
        };
        (self.status, axum::Json(body)).into_response()
    }
}

impl From<HubError> for ApiError {
    fn from(e: HubError) -> Self {
        let status = match &e {
            HubError::NoGame(_) => StatusCode::NOT_FOUND,
            HubError::BadToken(_) => StatusCode::UNAUTHORIZED,
            HubError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            HubError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            HubError::Full(_) => StatusCode::INSUFFICIENT_STORAGE,
            HubError::Random(_) => StatusCode::INTERNAL_SERVER_ERROR,
            HubError::Store(_) | HubError::Load(_) | HubError::Thread(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            HubError::Problem(Problem::Forbidden(_)) => StatusCode::FORBIDDEN,
            HubError::Problem(Problem::Conflict(_) | Problem::Refused { .. }) => {
                StatusCode::CONFLICT
            }
            HubError::Problem(Problem::Bad(_)) => StatusCode::BAD_REQUEST,
            HubError::Problem(Problem::Unavailable(_)) => StatusCode::SERVICE_UNAVAILABLE,
        };
        let kind = match &e {
            HubError::Problem(Problem::Refused { kind, .. }) => Some(kind.word()),
            _ => None,
        };
        Self {
            status,
            message: e.to_string(),
            kind,
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> Self {
        // axum answers JSON of the wrong shape with 422; here 422 means a scenario that
        // does not load, so any body that is not the request's JSON is a 400. A missing
        // `Content-Type: application/json` stays 415 (a browser's form post cannot send
        // JSON without it), a body over the limit 413.
        let status = match &e {
            JsonRejection::JsonDataError(_) | JsonRejection::JsonSyntaxError(_) => {
                StatusCode::BAD_REQUEST
            }
            other => other.status(),
        };
        Self::new(status, format!("bad request body: {}", e.body_text()))
    }
}

/// Every error is answered `{"error": "..."}`, including axum's own rejections, which
/// come as plain text or with no body at all: a bad query string (`?after=x`), an unknown
/// route or method, a `live` request that is no WebSocket upgrade.
async fn json_errors(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let route = format!("{} {}", request.method(), request.uri().path());
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 64 << 10)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_owned())
        .unwrap_or_default();
    let message = match status {
        _ if !text.is_empty() => text,
        StatusCode::NOT_FOUND => format!("no such request: {route}"),
        StatusCode::METHOD_NOT_ALLOWED => format!("{route}: not allowed on this path"),
        _ => status.canonical_reason().unwrap_or("error").to_owned(),
    };
    let mut answer = ApiError::new(status, message).into_response();
    if let Some(allow) = parts.headers.get(axum::http::header::ALLOW) {
        answer
            .headers_mut()
            .insert(axum::http::header::ALLOW, allow.clone());
    }
    answer
}

type Answer<T> = Result<axum::Json<T>, ApiError>;

/// The router of the whole API.
pub fn router(hub: Arc<Hub>) -> Router {
    let app = App {
        hub: Arc::clone(&hub),
        creates: Arc::new(AsyncMutex::new(Admission::new(hub.config()))),
        connections: Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS)),
    };
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/games", post(create).get(list))
        .route("/games/{id}/view", get(view))
        .route("/games/{id}/table", get(table))
        .route("/games/{id}/orders", post(orders))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/chat", get(chat).post(say))
        .route("/games/{id}/webhook", put(webhook))
        .route("/games/{id}/save", get(save))
        .route("/games/{id}/live", get(live))
        .route("/play/{id}", get(crate::web::play_page))
        .route("/host", get(crate::web::host_page))
        .route("/web/{*path}", get(crate::web::asset))
        .route("/scenarios", get(scenarios))
        .route("/scenarios/{name}", get(scenario))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(json_errors))
        .with_state(app)
}

/// The client's address, when the server was started with it (not in a test that drives
/// the router in process).
struct ClientAddr(Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Self(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

/// The token of an `Authorization: Bearer TOKEN` header. The scheme's name is
/// case-insensitive (RFC 7235: `bearer`, `BEARER`), and any run of spaces may follow it.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The seat a request's bearer token opens. The game is looked for first, so an unknown
/// game is a 404 with or without a token (game ids are public, so this tells an outsider
/// nothing), and a missing token a 401 only for a game that exists.
fn seat(app: &App, id: &str, headers: &HeaderMap) -> Result<Seat, ApiError> {
    let token = bearer(headers);
    match app.hub.seat(id, token.unwrap_or_default()) {
        Err(HubError::BadToken(_)) if token.is_none() => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "give a seat's token: `Authorization: Bearer TOKEN`".into(),
        )),
        other => Ok(other?),
    }
}

/// Runs blocking work (the store, loading a game) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
}

async fn create(
    State(app): State<App>,
    ClientAddr(from): ClientAddr,
    headers: HeaderMap,
    body: Result<axum::Json<CreateGame>, JsonRejection>,
) -> Result<(StatusCode, axum::Json<crate::protocol::Created>), ApiError> {
    // Admitted (the host, within the limits) before the body is even looked at.
    let admitted = app
        .creates
        .lock()
        .await
        .admit(bearer(&headers), from, Instant::now());
    match admitted {
        Err(Refusal::NotHost(m)) => return Err(ApiError::new(StatusCode::UNAUTHORIZED, m)),
        Err(Refusal::TooMany(m)) => return Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, m)),
        Ok(()) => {}
    }
    let axum::Json(request) = body?;
    let hub = Arc::clone(&app.hub);
    let created = blocking(move || hub.create(request).map_err(ApiError::from)).await?;
    Ok((StatusCode::CREATED, axum::Json(created)))
}

/// Only the host (anyone, on an open server) sees the scenarios the server offers.
fn host_only(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    if let crate::config::Access::Host { token_hash } = &app.hub.config().access {
        let given = bearer(headers).map(crate::tokens::hash).unwrap_or_default();
        if !bool::from(subtle::ConstantTimeEq::ct_eq(
            given.as_slice(),
            token_hash.as_slice(),
        )) {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "the scenarios the server offers are for the host: `Authorization: Bearer HOST_TOKEN`".into(),
            ));
        }
    }
    Ok(())
}

async fn scenarios(State(app): State<App>, headers: HeaderMap) -> Response {
    if let Err(e) = host_only(&app, &headers) {
        return e.into_response();
    }
    axum::Json(crate::web::OfferedList {
        scenarios: &app.hub.config().offered,
    })
    .into_response()
}

async fn scenario(
    State(app): State<App>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Answer<crate::protocol::CreateGame> {
    host_only(&app, &headers)?;
    app.hub
        .config()
        .offered
        .iter()
        .find(|o| o.name == name)
        .map(|o| axum::Json(o.request.clone()))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no scenario `{name}` on offer"),
            )
        })
}

async fn list(State(app): State<App>) -> Answer<GameList> {
    let hub = Arc::clone(&app.hub);
    let games = blocking(move || {
        hub.store()
            .list()
            .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))
    })
    .await?;
    Ok(axum::Json(GameList { games }))
}

/// The seat of a request, found off the async threads (it may read the store).
async fn seat_of(app: &App, id: &str, headers: &HeaderMap) -> Result<Seat, ApiError> {
    let (a, i, h) = (app.clone(), id.to_owned(), headers.clone());
    blocking(move || seat(&a, &i, &h)).await
}

async fn view(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<crate::protocol::SeatState> {
    let seat = seat_of(&app, &id, &headers).await?;
    Ok(axum::Json(app.hub.state(&id, &seat).await?))
}

async fn table(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<crate::protocol::Table> {
    seat_of(&app, &id, &headers).await?;
    Ok(axum::Json(app.hub.table(&id).await?))
}

async fn orders(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<axum::Json<SendOrders>, JsonRejection>,
) -> Answer<crate::protocol::OrdersReply> {
    let seat = seat_of(&app, &id, &headers).await?;
    let axum::Json(request) = body?;
    if request.text.len() > MAX_ORDERS_BYTES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("an orders file has at most {MAX_ORDERS_BYTES} bytes"),
        ));
    }
    Ok(axum::Json(
        app.hub
            .orders(&id, &seat, &request.file, &request.text)
            .await?,
    ))
}

async fn undo(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<axum::Json<Undo>, JsonRejection>,
) -> Answer<crate::protocol::SeatState> {
    let seat = seat_of(&app, &id, &headers).await?;
    let axum::Json(request) = body?;
    app.hub.undo(&id, &seat, request.reason).await?;
    Ok(axum::Json(app.hub.state(&id, &seat).await?))
}

#[derive(Deserialize)]
struct After {
    #[serde(default)]
    after: u64,
}

async fn chat(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(after): Query<After>,
) -> Answer<Chat> {
    seat_of(&app, &id, &headers).await?;
    let hub = Arc::clone(&app.hub);
    let lines = blocking(move || {
        hub.store()
            .chat(&id, after.after)
            .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))
    })
    .await?;
    Ok(axum::Json(Chat { lines }))
}

async fn say(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<axum::Json<Say>, JsonRejection>,
) -> Answer<crate::protocol::ChatLine> {
    let seat = seat_of(&app, &id, &headers).await?;
    let axum::Json(request) = body?;
    Ok(axum::Json(app.hub.say(&id, &seat, &request.text).await?))
}

async fn webhook(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<axum::Json<Webhook>, JsonRejection>,
) -> Result<StatusCode, ApiError> {
    let seat = seat_of(&app, &id, &headers).await?;
    let axum::Json(request) = body?;
    app.hub.set_webhook(&id, &seat, request.url).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn save(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<serde_json::Value> {
    let seat = seat_of(&app, &id, &headers).await?;
    if !seat.is_referee() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only the referee's token gives the whole save".into(),
        ));
    }
    Ok(axum::Json(app.hub.save(&id).await?))
}

async fn live(
    State(app): State<App>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Ok(permit) = Arc::clone(&app.connections).try_acquire_owned() else {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the server holds {MAX_CONNECTIONS} connections, its most"),
        )
        .into_response();
    };
    upgrade
        // tungstenite zeroes a whole read buffer per read: 128 KiB by default, which
        // was the top cost of a busy server (memset and mmap churn). Client messages are
        // small; a large state goes out, not in.
        .read_buffer_size(READ_BUFFER_BYTES)
        .max_message_size(MAX_WS_MESSAGE_BYTES)
        .max_frame_size(MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| async move {
            connection(app, id, socket).await;
            drop(permit);
        })
}

async fn send(socket: &mut WebSocket, message: &ServerMessage) -> bool {
    let text = serde_json::to_string(message).unwrap_or_else(|e| {
        serde_json::json!({"type": "error", "message": format!("the server could not write its answer: {e}")})
            .to_string()
    });
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// Says what was wrong, then closes — gracefully: what the client already sent is read
/// and dropped until it answers the close (at most a couple of seconds), so that the
/// connection is not reset with its data unread and the error lost on the way.
async fn refuse(socket: &mut WebSocket, message: String) {
    let _ = send(socket, &ServerMessage::Error { message }).await;
    let _ = socket.send(Message::Close(None)).await;
    let _ = tokio::time::timeout(CLOSE_GRACE, async {
        while let Some(Ok(_)) = socket.recv().await {}
    })
    .await;
}

/// One seat's live connection: `hello` with its token, then a welcome (the table), its
/// state now and after every change, chat lines; orders, chat and undo from the client.
async fn connection(app: App, id: String, mut socket: WebSocket) {
    let hello = tokio::time::timeout(HELLO_TIMEOUT, socket.recv()).await;
    let token = match hello {
        Ok(Some(Ok(Message::Text(text)))) => match serde_json::from_str::<ClientMessage>(&text) {
            Ok(ClientMessage::Hello { token }) => token,
            _ => {
                return refuse(
                    &mut socket,
                    "the first message is `hello` with a seat's token".into(),
                )
                .await;
            }
        },
        Ok(Some(Err(e))) => {
            // Too large, or not a WebSocket frame: say what was wrong, not "too late".
            return refuse(
                &mut socket,
                format!("the first message could not be read ({e}); it is `hello` with a seat's token, at most {MAX_WS_MESSAGE_BYTES} bytes"),
            )
            .await;
        }
        _ => return refuse(&mut socket, "no `hello` with a seat's token in time".into()).await,
    };
    let found = {
        let (hub, i) = (Arc::clone(&app.hub), id.clone());
        tokio::task::spawn_blocking(move || hub.seat(&i, &token)).await
    };
    let seat = match found {
        Ok(Ok(seat)) => seat,
        Ok(Err(e)) => return refuse(&mut socket, e.to_string()).await,
        Err(e) => return refuse(&mut socket, e.to_string()).await,
    };
    let watched = {
        let (hub, i, s) = (Arc::clone(&app.hub), id.clone(), seat.clone());
        tokio::task::spawn_blocking(move || hub.watch(&i, &s)).await
    };
    let mut updates = match watched {
        Ok(Ok(rx)) => rx,
        Ok(Err(e)) => return refuse(&mut socket, e.to_string()).await,
        Err(e) => return refuse(&mut socket, e.to_string()).await,
    };
    serve_seat(&app, &id, &seat, &mut socket, &mut updates).await;
    let (hub, i, s) = (Arc::clone(&app.hub), id, seat);
    let _ = tokio::task::spawn_blocking(move || hub.unwatch(&i, &s)).await;
}

async fn serve_seat(
    app: &App,
    id: &str,
    seat: &Seat,
    socket: &mut WebSocket,
    updates: &mut tokio::sync::broadcast::Receiver<Arc<crate::hub::Update>>,
) {
    let welcome = match app.hub.table(id).await {
        Ok(table) => ServerMessage::Welcome {
            seat: seat.name().to_owned(),
            table: Box::new(table),
        },
        Err(e) => return refuse(socket, e.to_string()).await,
    };
    if !send(socket, &welcome).await {
        return;
    }
    match app.hub.state(id, seat).await {
        Ok(s) => {
            if !send(socket, &ServerMessage::State(Box::new(s))).await {
                return;
            }
        }
        Err(e) => return refuse(socket, e.to_string()).await,
    }
    let mut bucket = Bucket::new(WS_BURST, f64::from(WS_PER_SECOND));
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Binary(b))) => String::from_utf8_lossy(&b).into_owned(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    _ => return,
                };
                if !bucket.take() {
                    return flooded(app, id, seat, socket, updates).await;
                }
                let reply = handle(app, id, seat, &text).await;
                if let Some(message) = reply
                    && !send(socket, &message).await
                {
                    return;
                }
            }
            update = updates.recv() => {
                if !deliver(app, id, seat, socket, update).await {
                    return;
                }
            }
        }
    }
}

/// How long the updates must stay quiet before a flooding client is cut off.
const QUIET: Duration = Duration::from_millis(200);

/// A client past its message budget: what it was accepted before the cut-off reaches it
/// first (its chat lines and the states after its orders), then the error and the close.
/// A game's thread answers a message before it broadcasts the change, so closing at once
/// lost the last few updates: a client counting its echoes saw the cut-off at ~27 messages
/// when the server had taken all 40.
async fn flooded(
    app: &App,
    id: &str,
    seat: &Seat,
    socket: &mut WebSocket,
    updates: &mut tokio::sync::broadcast::Receiver<Arc<crate::hub::Update>>,
) {
    let drained = tokio::time::timeout(CLOSE_GRACE, async {
        while let Ok(update) = tokio::time::timeout(QUIET, updates.recv()).await {
            if !deliver(app, id, seat, socket, update).await {
                return false;
            }
        }
        true
    })
    .await;
    if drained != Ok(false) {
        refuse(
            socket,
            format!("too many messages: at most {WS_BURST} at once, then {WS_PER_SECOND} a second"),
        )
        .await;
    }
}

/// Passes one broadcast update on (this seat's state, a chat line); a seat that fell
/// behind is sent its state as it is now. False once the connection is done.
async fn deliver(
    app: &App,
    id: &str,
    seat: &Seat,
    socket: &mut WebSocket,
    update: Result<Arc<crate::hub::Update>, tokio::sync::broadcast::error::RecvError>,
) -> bool {
    match update {
        Ok(update) => {
            for text in update.states.get(seat).into_iter().chain(&update.chat) {
                if socket
                    .send(Message::Text(text.to_string().into()))
                    .await
                    .is_err()
                {
                    return false;
                }
            }
            true
        }
        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
            match app.hub.state(id, seat).await {
                Ok(s) => send(socket, &ServerMessage::State(Box::new(s))).await,
                Err(e) => {
                    refuse(socket, e.to_string()).await;
                    false
                }
            }
        }
        Err(tokio::sync::broadcast::error::RecvError::Closed) => false,
    }
}

/// One client message; the answer to send back, if any (state updates come through the
/// broadcast).
async fn handle(app: &App, id: &str, seat: &Seat, text: &str) -> Option<ServerMessage> {
    let message = match serde_json::from_str::<ClientMessage>(text) {
        Ok(m) => m,
        Err(e) => {
            return Some(ServerMessage::Error {
                message: format!("not a message: {e}"),
            });
        }
    };
    let result = match message {
        ClientMessage::Hello { .. } => {
            Err(HubError::Problem(Problem::Bad("already said hello".into())))
        }
        ClientMessage::Order { order } => match app.hub.order(id, seat, &order).await {
            Err(HubError::Problem(Problem::Refused { kind, message })) => {
                return Some(ServerMessage::Refused {
                    kind: kind.word(),
                    message: format!("refused: {message}"),
                });
            }
            other => other,
        },
        ClientMessage::Chat { text } => app.hub.say(id, seat, &text).await.map(|_| ()),
        ClientMessage::Undo { reason } => app.hub.undo(id, seat, reason).await,
    };
    result.err().map(|e| ServerMessage::Error {
        message: e.to_string(),
    })
}

/// Runs a server on `listener` until `shutdown` resolves.
///
/// # Errors
/// The listener fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(hub).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::RandomError;

    /// Each kind of hub error has its status; the operating system failing the server is
    /// the server's error (500), not the request's.
    #[test]
    fn hub_errors_have_their_status() {
        let status = |e: HubError| ApiError::from(e).status;
        let random = HubError::Random(RandomError(getrandom::Error::UNSUPPORTED));
        let said = random.to_string();
        assert_eq!(status(random), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            said.starts_with("no random numbers from the system: "),
            "{said}"
        );
        assert_eq!(
            status(HubError::Store(crate::store::StoreError::Poisoned)),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            status(HubError::TooLarge { bytes: 2, most: 1 }),
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert_eq!(status(HubError::NoGame("g".into())), StatusCode::NOT_FOUND);
        assert_eq!(
            status(HubError::BadToken("g".into())),
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            status(HubError::Invalid("x".into())),
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
}
