//! The WebDriver side of the browser tests: a chromedriver on a free loopback port (one
//! browser test at a time), a window driven over the W3C protocol with `ureq`, and the
//! waits, clicks and screenshots the tests use. Only `tests/browser.rs` includes it.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

// The fifth outside player's page checks (issue 37), kept here so `tests/browser.rs`
// stays short; they use its `Game`.
mod player5;
// The sixth's (#21).
mod player6;
// The seventh's (#11: one look for a seat's view, the editor's).
mod player7;
// Issue 40: a seat the server's search plays, named, and its thinking shown to its own.
mod search_seat;
// Issue 40 again: the page while the server's computer thinks, and stacked pieces' names.
mod search_wait;

/// The longest any page may take to show what the server sent.
pub const WAIT: Duration = Duration::from_secs(20);

// ---- WebDriver ----

/// One browser test at a time: each starts a browser or two, and CI has two cores.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A chromedriver process on a free loopback port.
pub struct Driver {
    child: Child,
    url: String,
    agent: ureq::Agent,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn on_path(program: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(program))
            .find(|p| p.is_file())
    })
}

/// The driver, or `None` (after saying why) when the browser is absent and the browser
/// tests were not asked for.
pub fn driver() -> Option<Driver> {
    let required = std::env::var_os("GROGNARD_BROWSER_TESTS").is_some();
    let found =
        on_path("chromedriver").zip(on_path("chromium").or_else(|| on_path("chromium-browser")));
    let Some((chromedriver, _)) = found else {
        assert!(
            !required,
            "GROGNARD_BROWSER_TESTS is set but chromium or chromedriver is not on the PATH: run `bash tools/install-deps.sh test`"
        );
        eprintln!(
            "SKIPPED: the browser tests need chromium and chromedriver (`bash tools/install-deps.sh test` installs them; GROGNARD_BROWSER_TESTS=1 makes their absence a failure)"
        );
        return None;
    };
    let turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let mut child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    // It says when it listens; read its first line, then let it write where it likes.
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if line.is_err() {
                break;
            }
        }
    });
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    loop {
        let ready = agent
            .get(format!("{url}/status"))
            .call()
            .ok()
            .and_then(|mut r| r.body_mut().read_json::<Value>().ok())
            .is_some_and(|v| v["value"]["ready"] == json!(true));
        if ready {
            break;
        }
        assert!(start.elapsed() < WAIT, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(Driver {
        child,
        url,
        agent,
        _turn: turn,
    })
}

/// One browser window.
pub struct Page<'d> {
    driver: &'d Driver,
    session: String,
    pub name: String,
}

impl Drop for Page<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .agent
            .delete(format!("{}/session/{}", self.driver.url, self.session))
            .call();
    }
}

fn webdriver(driver: &Driver, method: &str, path: &str, body: Option<Value>) -> Value {
    let url = format!("{}{path}", driver.url);
    let response = match (method, body) {
        ("GET", _) => driver.agent.get(&url).call(),
        ("DELETE", _) => driver.agent.delete(&url).call(),
        (_, Some(b)) => driver.agent.post(&url).send_json(b),
        (_, None) => driver.agent.post(&url).send_json(json!({})),
    };
    let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = response.status();
    let v: Value = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_json()
        .unwrap_or(Value::Null);
    assert!(status.is_success(), "{method} {path}: {status} {v}");
    v["value"].clone()
}

impl<'d> Page<'d> {
    pub fn open(driver: &'d Driver, name: &str, width: u32, height: u32) -> Self {
        let mut options = json!({"args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-extensions", "--no-first-run", "--hide-scrollbars",
            format!("--window-size={width},{height}")
        ]});
        // A desktop window is no narrower than 500 px: a phone's screen is emulated.
        if width < 500 {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 2, "touch": true
            }});
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options
        }}});
        let v = webdriver(driver, "POST", "/session", Some(caps));
        let session = v["sessionId"].as_str().expect("a session").to_owned();
        Self {
            driver,
            session,
            name: name.to_owned(),
        }
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        webdriver(
            self.driver,
            method,
            &format!("/session/{}{path}", self.session),
            body,
        )
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    pub fn js(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Waits until `script` returns something truthy, and returns it.
    pub fn until(&self, what: &str, script: &str, args: Value) -> Value {
        let start = Instant::now();
        loop {
            let v = self.js(script, args.clone());
            if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
                return v;
            }
            assert!(
                start.elapsed() < WAIT,
                "{}: waited {WAIT:?} for {what}; the page says: {}",
                self.name,
                self.js("return document.body.innerText.slice(0, 1500)", json!([]))
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn element(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{}: no element {css}", self.name))
            .to_owned()
    }

    /// A real click (the browser's own hit test), on the element's centre.
    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), None);
    }

    pub fn actions(&self, steps: Value) {
        self.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "pointer", "id": "mouse",
                "parameters": {"pointerType": "mouse"}, "actions": steps}]})),
        );
    }

    pub fn html(&self) -> String {
        self.js("return document.documentElement.outerHTML", json!([]))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    pub fn screenshot(&self, file: &str) {
        let Some(dir) = std::env::var_os("GROGNARD_SCREENSHOTS") else {
            return;
        };
        let v = self.call("GET", "/screenshot", None);
        let png = base64_decode(v.as_str().unwrap_or_default());
        std::fs::write(std::path::Path::new(&dir).join(file), png).expect("write a screenshot");
    }

    /// Waits until the page shows `orders` orders given (its `data-orders`).
    pub fn at_order(&self, orders: u64) {
        self.until(
            &format!("order {orders}"),
            "return document.body.dataset.orders === String(arguments[0]) && !document.querySelector('button.order:disabled')",
            json!([orders]),
        );
    }
}

/// Standard base64 (WebDriver's screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
