//! The example settings file (`cardroom config --example`) names every key with its default.

use super::*;

/// The file's keys (`section.key`) of the settings, from their defaults.
fn keys() -> Vec<String> {
    let all = serde_json::to_value(Settings::default()).expect("settings as JSON");
    let mut keys = Vec::new();
    for (section, values) in all.as_object().expect("an object") {
        for key in values.as_object().expect("a section").keys() {
            keys.push(format!("{section}.{key}"));
        }
    }
    keys
}

/// The example names every setting there is, in its section, and loads as it is shipped.
#[test]
fn the_example_file_has_every_key_and_is_valid() {
    let mut written = Vec::new();
    let mut section = String::new();
    for line in EXAMPLE.lines() {
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.to_string();
        } else if let Some((key, _)) = line.trim_start_matches("# ").split_once(" = ") {
            if !key.contains(' ') {
                written.push(format!("{section}.{key}"));
            }
        }
    }
    for key in keys() {
        assert!(
            written.contains(&key),
            "the example file lacks `{key}` in its section"
        );
    }
    let c =
        Settings::from_sources(Toml::string(EXAMPLE), "example", []).expect("the example parses");
    c.validate().expect("the example is valid");
    // Uncommenting a line gives a valid value too (each documented example parses).
    let all: String = EXAMPLE
        .lines()
        .map(|l| {
            l.strip_prefix("# ")
                .filter(|r| r.contains(" = ") && !r.starts_with(' '))
                .unwrap_or(l)
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let parsed = Settings::from_sources(Toml::string(&all), "example", []);
    assert!(parsed.is_ok(), "every example value parses: {parsed:?}");
}

/// The table of names holds every setting once, and nothing else.
#[test]
fn every_setting_has_one_environment_variable() {
    let mut table: Vec<String> = SETTINGS.iter().map(|(_, k)| k.to_string()).collect();
    table.sort();
    let mut keys = keys();
    keys.sort();
    assert_eq!(table, keys);
    let mut vars: Vec<&str> = SETTINGS.iter().map(|(e, _)| *e).collect();
    vars.sort();
    vars.dedup();
    assert_eq!(vars.len(), SETTINGS.len(), "an environment variable twice");
}

#[test]
fn a_sectioned_file_and_the_flat_variables_give_the_same_settings() {
    let file = r#"
[server]
bind = "0.0.0.0:9000"
trusted_proxies = "10.0.0.1, 10.0.0.2"
secure_cookies = 1
[database]
url = "sqlite:///srv/room/cardroom.db"
sqlite_synchronous = "normal"
[room]
gaming_day_ends = "07:30"
[join]
codes_per_phone = 5
[mail]
smtp_host = "smtp.example.pt"
smtp_tls = "tls"
from = "Cardroom <floor@example.pt>"
[sms]
provider = "twilio"
user = "AC1"
password = "token"
from = "Cardroom"
[notify]
timeout_secs = 10
"#;
    let vars = [
        ("CARDROOM_BIND", "0.0.0.0:9000"),
        ("CARDROOM_TRUSTED_PROXIES", "10.0.0.1, 10.0.0.2"),
        ("CARDROOM_SECURE_COOKIES", "1"),
        ("CARDROOM_DATABASE_URL", "sqlite:///srv/room/cardroom.db"),
        ("CARDROOM_SQLITE_SYNCHRONOUS", "normal"),
        ("CARDROOM_GAMING_DAY_ENDS", "07:30"),
        ("CARDROOM_JOIN_CODES_PER_PHONE", "5"),
        ("CARDROOM_SMTP_HOST", "smtp.example.pt"),
        ("CARDROOM_SMTP_TLS", "tls"),
        ("CARDROOM_MAIL_FROM", "Cardroom <floor@example.pt>"),
        ("CARDROOM_SMS_PROVIDER", "twilio"),
        ("CARDROOM_SMS_USER", "AC1"),
        ("CARDROOM_SMS_PASSWORD", "token"),
        ("CARDROOM_SMS_FROM", "Cardroom"),
        ("CARDROOM_NOTIFY_TIMEOUT_SECS", "10"),
        // Not settings: left alone.
        ("CARDROOM_CONFIG", "/etc/cardroom/cardroom.toml"),
        ("CARDROOM_LOG_FORMAT", "json"),
        ("CARDROOM_TEST_DB", "postgres"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()));
    let from_file =
        Settings::from_sources(Toml::string(file), "cardroom.toml", []).expect("the file parses");
    let from_env = Settings::from_sources(Toml::string(""), "cardroom.toml", vars)
        .expect("the variables parse");
    assert_eq!(
        serde_json::to_value(&from_file).unwrap(),
        serde_json::to_value(&from_env).unwrap()
    );
    let c = from_env.validate().expect("valid");
    assert_eq!(c.server.bind, "0.0.0.0:9000".parse().unwrap());
    assert_eq!(
        c.server.trusted_proxies,
        vec![
            "10.0.0.1".parse::<IpAddr>().unwrap(),
            "10.0.0.2".parse().unwrap()
        ]
    );
    assert!(c.server.secure_cookies);
    assert_eq!(c.server.public_base, "http://0.0.0.0:9000");
    assert_eq!(
        c.database.sqlite_synchronous,
        crate::db::Synchronous::Normal
    );
    assert_eq!(
        c.room.gaming_day_ends,
        chrono::NaiveTime::from_hms_opt(7, 30, 0).unwrap()
    );
    assert_eq!(c.join.codes_per_phone, 5);
    assert_eq!((c.mail.smtp_tls, c.mail.smtp_port), (SmtpTls::Tls, 465));
    assert_eq!(
        c.mail.from.map(|m| m.email.to_string()).as_deref(),
        Some("floor@example.pt")
    );
    assert_eq!(c.sms.provider, Some(SmsProvider::Twilio));
    assert_eq!(c.notify.timeout_secs, 10);
    assert_eq!(
        c.notify.sink,
        PathBuf::from("/srv/room/cardroom-messages.log")
    );
    assert_eq!(c.audit.dir, PathBuf::from("/srv/room"));
    // The variables win over the file.
    let both = Settings::from_sources(
        Toml::string(file),
        "cardroom.toml",
        [("CARDROOM_JOIN_CODES_PER_PHONE".to_string(), "7".to_string())],
    )
    .expect("parses");
    assert_eq!(both.join.codes_per_phone, 7);
    assert_eq!(both.server.bind, "0.0.0.0:9000");
    // A value of the wrong type is named by its variable, from either source.
    for (file, vars) in [
        ("[join]\ncodes_per_phone = \"many\"", vec![]),
        (
            "",
            vec![(
                "CARDROOM_JOIN_CODES_PER_PHONE".to_string(),
                "many".to_string(),
            )],
        ),
    ] {
        let e = Settings::from_sources(Toml::string(file), "cardroom.toml", vars).unwrap_err();
        assert_eq!(e.setting, "CARDROOM_JOIN_CODES_PER_PHONE");
    }
}

#[test]
fn a_file_written_before_the_sections_still_loads() {
    // Settings written at the top of the file, as every room's file was: read in their
    // sections and named for the warning; a key already in its section wins.
    let s = Settings::from_sources(
        Toml::string(
            "smtp_host = \"smtp.example.pt\"\ndatabase_url = \"sqlite://x.db\"\nbackup_keep = 9\n[backup]\nkeep = 4\n",
        ),
        "cardroom.toml",
        [],
    )
    .expect("a flat file loads");
    assert_eq!(s.mail.smtp_host.as_deref(), Some("smtp.example.pt"));
    assert_eq!(s.database.url, "sqlite://x.db");
    assert_eq!(s.backup.keep, 4);
    let mut flat = s.flat_keys.clone();
    flat.sort();
    assert_eq!(flat, ["backup_keep", "database_url", "smtp_host"]);
}

#[test]
fn a_key_the_file_does_not_know_is_refused_by_name() {
    let e = Settings::from_sources(Toml::string("smtp_hots = \"x\"\n"), "cardroom.toml", [])
        .unwrap_err();
    assert_eq!(e.setting, "smtp_hots");
    assert!(e.message.contains("cardroom.toml"), "{}", e.message);
    // A key no section has.
    let e = Settings::from_sources(
        Toml::string("[mail]\nsmtp_hots = \"smtp.example.pt\"\n"),
        "cardroom.toml",
        [],
    )
    .unwrap_err();
    assert_eq!(e.setting, "mail.smtp_hots");
    let e = Settings::from_sources(Toml::string("[mails]\nfrom = \"x\"\n"), "cardroom.toml", [])
        .unwrap_err();
    assert_eq!(e.setting, "mails");
}
