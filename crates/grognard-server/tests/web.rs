//! The browser client as the server serves it, without a browser: every page and file
//! carries the Content-Security-Policy, the pages hold no inline script, every module a
//! script imports is served, the whole client stays under 300 KB, and the scenarios the
//! host page offers are the host's alone.

mod common;

use std::time::Duration;

use common::root;
use grognard_server::config::Config;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

struct Got {
    status: u16,
    csp: Option<String>,
    media: String,
    body: String,
}

fn get(url: &str, token: Option<&str>) -> Got {
    let mut request = agent().get(url);
    if let Some(t) = token {
        request = request.header("Authorization", &format!("Bearer {t}"));
    }
    let mut r = request.call().unwrap();
    let header = |name: &str| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (csp, media) = (
        header("content-security-policy"),
        header("content-type").unwrap_or_default(),
    );
    Got {
        status: r.status().as_u16(),
        csp,
        media,
        body: r
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_string()
            .unwrap(),
    }
}

fn server(host: &str) -> (tempfile::TempDir, grognard_server::Running) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new("127.0.0.1:0", dir.path().join("g.sqlite"), host);
    config.offered =
        vec![grognard_server::web::offer(&root().join("examples/drill-hex.yaml")).unwrap()];
    let server = grognard_server::spawn_with(config, host.to_owned()).unwrap();
    (dir, server)
}

#[test]
fn pages_and_files_carry_the_policy_and_weigh_under_300_kb() {
    let host = "x".repeat(40);
    let (_dir, server) = server(&host);
    let base = server.url();
    let mut total = 0;
    for page in ["/play/0123456789abcdef", "/host"] {
        let got = get(&format!("{base}{page}"), None);
        assert_eq!(got.status, 200, "{page}");
        assert!(got.media.starts_with("text/html"), "{page}: {}", got.media);
        let csp = got.csp.unwrap_or_default();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{page}: {csp}"
        );
        // No inline script or handler: every script is a file of the server's.
        assert!(
            !got.body.contains("<script>") && !got.body.contains(" onclick="),
            "{page}"
        );
        for script in got.body.split("<script ").skip(1) {
            assert!(script.contains("src=\"/web/"), "{page}: {script}");
        }
        total += got.body.len();
    }
    for path in grognard_server::web::asset_paths() {
        let got = get(&format!("{base}/web/{path}"), None);
        assert_eq!(got.status, 200, "{path}");
        assert!(got.csp.is_some(), "{path}");
        total += got.body.len();
        // Each module it imports is one the server serves.
        for line in got.body.lines().filter(|l| l.starts_with("import ")) {
            let target = line.rsplit("from '").next().unwrap().trim_end_matches("';");
            let file = format!("js/{}", target.trim_start_matches("./"));
            assert!(
                grognard_server::web::asset_paths().any(|p| p == file),
                "{path} imports {target}, which is not served"
            );
        }
    }
    eprintln!("the client: {total} bytes");
    assert!(total < 300 * 1024, "the client is {total} bytes");
    // A file the browser holds already costs no bytes: its ETag answers 304.
    let mut first = agent()
        .get(format!("{base}/web/js/play.js"))
        .call()
        .unwrap();
    let tag = first
        .headers()
        .get("etag")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let _ = first.body_mut().read_to_string();
    let again = agent()
        .get(format!("{base}/web/js/play.js"))
        .header("If-None-Match", &tag)
        .call()
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
    let missing = get(&format!("{base}/web/js/nothing.js"), None);
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("no such file"), "{}", missing.body);
}

#[test]
fn only_the_host_sees_the_scenarios_on_offer() {
    let host = "y".repeat(40);
    let (_dir, server) = server(&host);
    let base = server.url();
    assert_eq!(get(&format!("{base}/scenarios"), None).status, 401);
    assert_eq!(
        get(&format!("{base}/scenarios"), Some("not-the-host")).status,
        401
    );
    assert_eq!(
        get(&format!("{base}/scenarios/drill-hex"), None).status,
        401
    );
    let list: serde_json::Value =
        serde_json::from_str(&get(&format!("{base}/scenarios"), Some(&host)).body).unwrap();
    assert_eq!(list["scenarios"][0]["name"], "drill-hex");
    assert!(list["scenarios"][0]["sides"].as_array().unwrap().len() >= 2);
    let request = get(&format!("{base}/scenarios/drill-hex"), Some(&host));
    assert_eq!(request.status, 200);
    let request: serde_json::Value = serde_json::from_str(&request.body).unwrap();
    assert!(request["files"].as_object().unwrap().len() >= 2);
    assert_eq!(
        get(&format!("{base}/scenarios/nope"), Some(&host)).status,
        404
    );
}
