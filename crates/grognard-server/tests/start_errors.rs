//! The server's start-up API answers with a typed `StartError`, worded as `grognard serve`
//! has always printed it.

use grognard_server::StartError;

#[test]
fn an_address_in_use_is_a_listen_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = grognard_server::spawn("127.0.0.1:0", &dir.path().join("a.sqlite")).unwrap();
    let taken = first.addr.to_string();
    let Err(e) = grognard_server::spawn(&taken, &dir.path().join("b.sqlite")) else {
        panic!("a second server bound {taken}");
    };
    assert!(
        matches!(&e, StartError::Listen { listen, .. } if *listen == taken),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with(&format!("cannot listen on {taken}: ")),
        "{e}"
    );
    // Callers that report text keep the same words.
    assert_eq!(
        String::from(e).split(": ").next(),
        Some(&*format!("cannot listen on {taken}"))
    );
}

#[test]
fn a_database_that_cannot_be_opened_is_a_store_error() {
    let dir = tempfile::tempdir().unwrap();
    // A folder where the database file should be.
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    let Err(e) = grognard_server::spawn("127.0.0.1:0", &db) else {
        panic!("a server opened a folder as its database");
    };
    assert!(matches!(e, StartError::Store(_)), "{e:?}");
}
