//! Scale (issue 22): `sim --shard I/N --out PART` plays shard I's games with the seeds the
//! whole run gives them and writes an exact tally; `sim-merge` adds the parts up into the
//! summary of the whole run, byte for byte, in text and JSON, whatever the order of the
//! parts — on every bundled example. Parts of different runs, a missing or repeated
//! shard, and a bad `--shard` are refused clearly.

use crate::util::{grognard, yaml_files};

/// Every bundled example scenario with its orders file.
fn examples() -> Vec<(String, String)> {
    yaml_files("examples")
        .into_iter()
        .filter(|f| !f.ends_with(".orders.yaml"))
        .map(|f| {
            let orders = f.replace(".yaml", ".orders.yaml");
            (f, orders)
        })
        .collect()
}

fn run(args: &[&str]) -> String {
    let r = grognard(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn sharded_runs_merge_into_the_whole_runs_summary_on_every_example() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (scenario, orders) in examples() {
        // The example's opening, then random play to the end: refusals, results, chart
        // outcomes and every piece's end all go through the tally.
        let base = [
            "sim",
            scenario.as_str(),
            "--orders",
            orders.as_str(),
            "--policy",
            "random",
            "--runs",
            "5",
        ];
        let whole = run(&base);
        let whole_json = run(&[&base[..], &["--json"]].concat());
        let mut parts = Vec::new();
        for i in 1..=3 {
            let part = dir
                .path()
                .join(format!("{}-{i}.json", scenario.replace('/', "_")))
                .to_string_lossy()
                .into_owned();
            let shard = format!("{i}/3");
            run(&[&base[..], &["--shard", &shard, "--out", &part]].concat());
            parts.push(part);
        }
        // Any order of the parts.
        let merged = run(&["sim-merge", &parts[2], &parts[0], &parts[1]]);
        assert_eq!(merged, whole, "{scenario}");
        let merged_json = run(&["sim-merge", &parts[1], &parts[2], &parts[0], "--json"]);
        assert_eq!(merged_json, whole_json, "{scenario}");
    }
}

#[test]
fn parts_of_different_runs_or_missing_shards_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let part = |name: &str, shard: &str, runs: &str| -> String {
        let path = dir.path().join(name).to_string_lossy().into_owned();
        run(&[
            "sim",
            "examples/drill-square.yaml",
            "--policy",
            "random",
            "--runs",
            runs,
            "--shard",
            shard,
            "--out",
            &path,
        ]);
        path
    };
    let a1 = part("a1.json", "1/2", "10");
    let a2 = part("a2.json", "2/2", "10");
    let b2 = part("b2.json", "2/2", "11");
    let refused = |args: &[&str], want: &str| {
        let r = grognard(args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stdout);
        assert!(r.stderr.contains(want), "{args:?}: {}", r.stderr);
    };
    refused(
        &["sim-merge", &a1],
        "shard 2/2 is missing: the run has 2 shards",
    );
    refused(&["sim-merge", &a1, &a1, &a2], "shard 1/2 is given twice");
    refused(&["sim-merge", &a1, &b2], "are parts of different runs");
    let text = dir.path().join("not-a-part.json");
    std::fs::write(&text, "{}").expect("write");
    refused(
        &["sim-merge", &text.to_string_lossy()],
        "not a part written by `grognard sim --shard I/N --out`",
    );
    for bad in ["0/2", "3/2", "2", "a/b"] {
        let r = grognard(&[
            "sim",
            "examples/drill-square.yaml",
            "--policy",
            "random",
            "--shard",
            bad,
            "--out",
            &a1,
        ]);
        assert_eq!(r.code, 2, "{bad}");
        assert!(
            r.stderr.contains("expected I/N with 1 ≤ I ≤ N"),
            "{}",
            r.stderr
        );
    }
    let r = grognard(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "random",
        "--shard",
        "1/2",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--shard needs --out"), "{}", r.stderr);
}

#[test]
fn more_than_the_old_cap_of_runs_is_accepted() {
    // Tallies are constant-size: a run of 100,001 games is only a matter of time. One shard
    // of 50,001 (games 0 and 50,001) plays two of it.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("p.json").to_string_lossy().into_owned();
    let out = run(&[
        "sim",
        "examples/drill-square.yaml",
        "--policy",
        "random",
        "--runs",
        "100001",
        "--shard",
        "1/50001",
        "--out",
        &path,
    ]);
    // prose: the shard line's words count the games.
    assert!(out.contains("shard 1/50001: 2 of 100001 games"), "{out}");
}

#[test]
fn numbers_echoed_from_a_file_read_as_people_write_them() {
    // A value of 1e308 is echoed as `1e308`, never as its 309 digits.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("huge.yaml");
    std::fs::write(
        &file,
        "scenario: huge\nruleset: drill-open\nboard: { width: 1e308, height: 48 }\nsides: { blue: {}, red: {} }\npieces: []\n",
    )
    .expect("write");
    let r = grognard(&["validate", &file.to_string_lossy()]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("found `1e308`"), "{}", r.stderr);
    assert!(!r.stderr.contains("0000000000"), "{}", r.stderr);
}
