//! The settings' checks: defaults, each section's refusals, the flat-file compatibility.

use super::*;

#[test]
fn defaults_are_valid() {
    assert!(Settings::default().validate().is_ok());
}

#[test]
#[allow(clippy::field_reassign_with_default)] // one setting changed from the defaults, each time
fn invalid_settings_are_named() {
    let mut c = Settings::default();
    c.server.bind = "nowhere".into();
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_BIND");
    let mut c = Settings::default();
    c.database.url = "mysql://x".into();
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_DATABASE_URL");
    let mut c = Settings::default();
    c.security.secret = Some("short".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SECRET");
    let mut c = Settings::default();
    c.security.admin_password = Some("admin".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_ADMIN_PASSWORD");
    for bad in [0, 31] {
        let mut c = Settings::default();
        c.room.call_extension_min = bad;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_CALL_EXTENSION_MIN"
        );
    }
    let mut c = Settings::default();
    c.join.codes_per_phone = 0;
    assert_eq!(
        c.validate().unwrap_err().setting,
        "CARDROOM_JOIN_CODES_PER_PHONE"
    );
    for bad in [0, 1, 601] {
        let mut c = Settings::default();
        c.room.kiosk_idle_secs = bad;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_KIOSK_IDLE_SECS"
        );
    }
    for bad in [0, 25] {
        let mut c = Settings::default();
        c.room.limit_change_horizon_hours = bad;
        assert_eq!(
            c.validate().unwrap_err().setting,
            "CARDROOM_LIMIT_CHANGE_HORIZON_HOURS"
        );
    }
    let mut c = Settings::default();
    c.room.player_link_rate = 5;
    assert_eq!(
        c.validate().unwrap_err().setting,
        "CARDROOM_PLAYER_LINK_RATE"
    );
    let mut c = Settings::default();
    assert_eq!(
        c.validate().unwrap().database.sqlite_synchronous,
        crate::db::Synchronous::Full
    );
    c.database.sqlite_synchronous = "Normal".into();
    assert!(c.validate().is_ok());
    assert_eq!(
        c.validate().unwrap().database.sqlite_synchronous,
        crate::db::Synchronous::Normal
    );
    c.database.sqlite_synchronous = "off".into();
    assert_eq!(
        c.validate().unwrap_err().setting,
        "CARDROOM_SQLITE_SYNCHRONOUS"
    );
}

#[test]
#[allow(clippy::field_reassign_with_default)]
fn message_settings_are_checked_together() {
    let mut c = Settings::default();
    c.mail.smtp_host = Some("smtp.example.com".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_MAIL_FROM");
    c.mail.from = Some("Cardroom <floor@example.com>".into());
    assert!(c.validate().is_ok());
    c.mail.smtp_user = Some("u".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMTP_PASSWORD");
    c.mail.smtp_password = Some("p".into());
    c.mail.smtp_tls = "ssl".into();
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMTP_TLS");
    let mut c = Settings::default();
    c.sms.provider = Some("carrier-pigeon".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_PROVIDER");
    c.sms.provider = Some("generic".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_URL");
    c.sms.url = Some("http://127.0.0.1:9/sms".into());
    assert!(c.validate().is_ok());
    c.sms.provider = Some("twilio".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_SMS_USER");
    let mut c = Settings::default();
    c.notify.lease_secs = 10;
    assert_eq!(
        c.validate().unwrap_err().setting,
        "CARDROOM_NOTIFY_LEASE_SECS"
    );
    let mut c = Settings::default();
    c.room.gaming_day_ends = "25:00".into();
    assert_eq!(
        c.validate().unwrap_err().setting,
        "CARDROOM_GAMING_DAY_ENDS"
    );
    let mut c = Settings::default();
    c.server.public_url = Some("room.example.com".into());
    assert_eq!(c.validate().unwrap_err().setting, "CARDROOM_PUBLIC_URL");
    assert_eq!(
        Config::default().server.public_base,
        "http://127.0.0.1:8080"
    );
    let mut c = Settings::default();
    c.database.url = "sqlite:///var/lib/room/cardroom.db".into();
    assert_eq!(
        c.validate().unwrap().notify.sink,
        PathBuf::from("/var/lib/room/cardroom-messages.log")
    );
    assert_eq!(
        Config::default().notify.sink,
        PathBuf::from("cardroom-messages.log")
    );
}

#[test]
fn the_audit_directory_defaults_to_the_state_directory_on_postgresql() {
    use std::path::PathBuf;
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    // The former default directory, here one without a key.
    let none = PathBuf::from("/nonexistent/cardroom-audit");
    // SQLite: beside the database file, whatever the environment.
    let mut lite = Settings::default();
    lite.database.url = "sqlite:///var/lib/room/cardroom.db".into();
    assert_eq!(
        lite.audit_dir_from(env(&[("STATE_DIRECTORY", "/srv/x")]), &none),
        Some(PathBuf::from("/var/lib/room"))
    );
    assert_eq!(
        Settings::default().audit_dir_from(env(&[]), &none),
        Some(PathBuf::from("."))
    );
    let mut pg = Settings::default();
    pg.database.url = "postgres://cardroom@db/cardroom".into();
    // The service's state directory (the Debian package's unit sets it).
    assert_eq!(
        pg.audit_dir_from(
            env(&[
                ("STATE_DIRECTORY", "/var/lib/cardroom:/var/lib/other"),
                ("HOME", "/home/x")
            ]),
            &none
        ),
        Some(PathBuf::from("/var/lib/cardroom/audit"))
    );
    assert_eq!(
        pg.audit_dir_from(
            env(&[("XDG_STATE_HOME", "/st"), ("HOME", "/home/x")]),
            &none
        ),
        Some(PathBuf::from("/st/cardroom/audit"))
    );
    assert_eq!(
        pg.audit_dir_from(env(&[("HOME", "/home/x")]), &none),
        Some(PathBuf::from("/home/x/.local/state/cardroom/audit"))
    );
    // Nowhere to default to: the setting is needed.
    assert_eq!(pg.audit_dir_from(env(&[("HOME", " ")]), &none), None);
    // Set, it wins on both backends.
    let mut set = pg.clone();
    set.audit.dir = Some("/srv/audit".into());
    assert_eq!(
        set.audit_dir_from(env(&[("STATE_DIRECTORY", "/var/lib/cardroom")]), &none),
        Some(PathBuf::from("/srv/audit"))
    );
    // The former default still holding the key, and none at the new place: kept.
    let old = std::env::temp_dir().join(format!("cardroom-old-audit-{}", std::process::id()));
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join(crate::audit_seal::KEY_FILE), "00").unwrap();
    assert_eq!(
        pg.audit_dir_from(env(&[("STATE_DIRECTORY", "/nonexistent/state")]), &old),
        Some(old.clone())
    );
    std::fs::remove_dir_all(&old).unwrap();
}

/// The settings from the defaults and these variables alone.
fn from_vars(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
    Settings::from_sources(
        figment::providers::Toml::string(""),
        "cardroom.toml",
        vars.iter().map(|(k, v)| (k.to_string(), v.to_string())),
    )
}

#[test]
fn a_text_setting_keeps_the_variables_text_exactly() {
    // Text that reads as a number, a switch or a float stays that text, in every text
    // setting (here the SMS sender, a password, a secret and the gaming day's end).
    for text in [
        "+15551234567",
        "0123",
        "true",
        "1e5",
        "-7",
        "1.50",
        "[1, 2]",
        "{\"a\":1}",
    ] {
        let s = from_vars(&[
            ("CARDROOM_SMS_FROM", text),
            ("CARDROOM_SMS_PASSWORD", text),
            ("CARDROOM_SECRET", text),
            ("CARDROOM_SMTP_HOST", text),
            ("CARDROOM_GAMING_DAY_ENDS", text),
            ("CARDROOM_SQLITE_SYNCHRONOUS", text),
        ])
        .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(s.sms.from.as_deref(), Some(text));
        assert_eq!(s.sms.password.as_deref(), Some(text));
        assert_eq!(s.security.secret.as_deref(), Some(text));
        assert_eq!(s.mail.smtp_host.as_deref(), Some(text));
        assert_eq!(s.room.gaming_day_ends, text);
        assert_eq!(s.database.sqlite_synchronous, text);
    }
    // The SMS body's template is JSON text: kept as written, not read as a table.
    let template = r#"{"to":"{to}","text":"{text}"}"#;
    let s = from_vars(&[("CARDROOM_SMS_TEMPLATE", template)]).expect("parses");
    assert_eq!(s.sms.template, template);
    // Every text setting of the file keeps its text when a variable gives it: the whole list
    // of settings, each given "0123" by its variable, either reads it as "0123" or is a
    // number (123) or refuses it as not a switch.
    for (flat, nested) in SETTINGS {
        let var = format!("CARDROOM_{}", flat.to_ascii_uppercase());
        let Ok(s) = from_vars(&[(var.as_str(), "0123")]) else {
            continue;
        };
        let (section, key) = nested.split_once('.').unwrap();
        let v = serde_json::to_value(&s).unwrap()[section][key].clone();
        assert!(
            v == serde_json::json!("0123") || v == serde_json::json!(123),
            "{var}: {v}"
        );
    }
}

#[test]
fn number_and_switch_settings_still_read_their_variables() {
    let s = from_vars(&[
        ("CARDROOM_SMTP_PORT", "587"),
        ("CARDROOM_JOIN_CODES_PER_PHONE", "0012"),
        ("CARDROOM_NOTIFY_BACKOFF_MS", "2500"),
        ("CARDROOM_WORKERS", "3"),
        ("CARDROOM_SECURE_COOKIES", "true"),
        ("CARDROOM_TEST_CLOCK", "0"),
    ])
    .expect("parses");
    assert_eq!(s.mail.smtp_port, Some(587));
    assert_eq!(s.join.codes_per_phone, 12);
    assert_eq!(s.notify.backoff_ms, 2500);
    assert_eq!(s.server.workers, Some(3));
    assert!(s.server.secure_cookies);
    assert!(!s.server.test_clock);
    // Not a number: refused, named by its variable.
    for bad in ["1e5", "+15551234567x", "twelve", "-3", ""] {
        let e = from_vars(&[("CARDROOM_JOIN_CODES_PER_PHONE", bad)]).unwrap_err();
        assert_eq!(e.setting, "CARDROOM_JOIN_CODES_PER_PHONE", "{bad}");
    }
    let e = from_vars(&[("CARDROOM_SMTP_PORT", "70000")]).unwrap_err();
    assert_eq!(e.setting, "CARDROOM_SMTP_PORT");
    // The file keeps its own types: a number written in quotes is still refused there.
    let e = Settings::from_sources(
        figment::providers::Toml::string("[join]\ncodes_per_phone = \"5\"\n"),
        "cardroom.toml",
        [],
    )
    .unwrap_err();
    assert_eq!(e.setting, "CARDROOM_JOIN_CODES_PER_PHONE");
    // A variable still wins over the file, the file's other settings kept.
    let s = Settings::from_sources(
        figment::providers::Toml::string("[sms]\nfrom = \"Room\"\nuser = \"u\"\n"),
        "cardroom.toml",
        [("CARDROOM_SMS_FROM".to_string(), "+351912345678".to_string())],
    )
    .expect("parses");
    assert_eq!(s.sms.from.as_deref(), Some("+351912345678"));
    assert_eq!(s.sms.user.as_deref(), Some("u"));
}
