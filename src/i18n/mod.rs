//! Translation catalogs (Fluent), Portuguese and English, and language negotiation.

use crate::domain::player::Language;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// Each language's catalog, in parts (one per area of the product).
const EN: &[&str] = &[
    include_str!("en/core.ftl"),
    include_str!("en/admin.ftl"),
    include_str!("en/api.ftl"),
    include_str!("en/rules.ftl"),
    include_str!("en/tablet.ftl"),
    include_str!("en/notify.ftl"),
    include_str!("en/player.ftl"),
    include_str!("en/reports.ftl"),
    include_str!("en/buttons.ftl"),
    include_str!("en/limits.ftl"),
    include_str!("en/rulings.ftl"),
    include_str!("en/waits.ftl"),
    include_str!("en/safe.ftl"),
    include_str!("en/board_alarms.ftl"),
    include_str!("en/lobby.ftl"),
    include_str!("en/audit_seal.ftl"),
    include_str!("en/idempotency.ftl"),
    include_str!("en/calls.ftl"),
    include_str!("en/offline.ftl"),
    include_str!("en/dealers.ftl"),
    include_str!("en/text.ftl"),
];
const PT: &[&str] = &[
    include_str!("pt/core.ftl"),
    include_str!("pt/admin.ftl"),
    include_str!("pt/api.ftl"),
    include_str!("pt/rules.ftl"),
    include_str!("pt/tablet.ftl"),
    include_str!("pt/notify.ftl"),
    include_str!("pt/player.ftl"),
    include_str!("pt/reports.ftl"),
    include_str!("pt/buttons.ftl"),
    include_str!("pt/limits.ftl"),
    include_str!("pt/rulings.ftl"),
    include_str!("pt/waits.ftl"),
    include_str!("pt/safe.ftl"),
    include_str!("pt/board_alarms.ftl"),
    include_str!("pt/lobby.ftl"),
    include_str!("pt/audit_seal.ftl"),
    include_str!("pt/idempotency.ftl"),
    include_str!("pt/calls.ftl"),
    include_str!("pt/offline.ftl"),
    include_str!("pt/dealers.ftl"),
    include_str!("pt/text.ftl"),
];

pub struct I18n {
    en: FluentBundle<FluentResource>,
    pt: FluentBundle<FluentResource>,
}

fn bundle(lang: &str, parts: &[&str]) -> FluentBundle<FluentResource> {
    let id: LanguageIdentifier = lang.parse().expect("valid language id");
    let mut b = FluentBundle::new_concurrent(vec![id]);
    b.set_use_isolating(false);
    for src in parts {
        let res = FluentResource::try_new(src.to_string())
            .unwrap_or_else(|(_, errs)| panic!("catalog {lang}: {errs:?}"));
        b.add_resource(res)
            .unwrap_or_else(|errs| panic!("catalog {lang}: {errs:?}"));
    }
    b
}

impl Default for I18n {
    fn default() -> Self {
        I18n {
            en: bundle("en", EN),
            pt: bundle("pt-PT", PT),
        }
    }
}

impl I18n {
    fn bundle(&self, lang: Language) -> &FluentBundle<FluentResource> {
        match lang {
            Language::En => &self.en,
            Language::Pt => &self.pt,
        }
    }

    /// The message for `key` in `lang`, with string arguments.
    /// A message with arguments. An argument made by [`money`] is shown as an amount in the
    /// reader's language.
    pub fn msg(&self, lang: Language, key: &str, args: &[(&str, String)]) -> String {
        let b = self.bundle(lang);
        let Some(pattern) = b.get_message(key).and_then(|m| m.value()) else {
            log::warn!("missing translation {key} ({lang})");
            return key.to_string();
        };
        let mut fa = FluentArgs::new();
        for (k, v) in args {
            // Numbers stay numbers so plural rules apply; ISO dates are shown the local way.
            // Only a number written the way the number itself is: digits with a leading zero
            // (a join code "035149", a phone number) stay text, or the zero would be lost.
            if let Some((minor, currency)) = money_arg(v) {
                fa.set(
                    *k,
                    FluentValue::from(crate::domain::money::format_money(minor, currency, lang)),
                );
            } else if let Some(n) = v.parse::<i64>().ok().filter(|n| n.to_string() == *v) {
                fa.set(*k, FluentValue::from(n));
            } else if let Ok(d) = chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d") {
                fa.set(*k, FluentValue::from(local_date(lang, d)));
            } else {
                fa.set(*k, FluentValue::from(v.clone()));
            }
        }
        let mut errors = Vec::new();
        let s = b.format_pattern(
            pattern,
            if args.is_empty() { None } else { Some(&fa) },
            &mut errors,
        );
        if !errors.is_empty() {
            log::warn!("translation {key} ({lang}): {errors:?}");
        }
        s.into_owned()
    }

    pub fn t(&self, lang: Language, key: &str) -> String {
        self.msg(lang, key, &[])
    }

    /// Every message id in a catalog (for the catalog-parity test).
    pub fn keys(lang: Language) -> Vec<String> {
        let src = match lang {
            Language::En => EN,
            Language::Pt => PT,
        };
        src.iter()
            .flat_map(|s| s.lines())
            .filter(|l| !l.starts_with([' ', '#', '\t', '.', '*', '[', '}']) && l.contains(" ="))
            .filter_map(|l| l.split(" =").next())
            .map(|s| s.trim().to_string())
            .collect()
    }
}

/// A date the way each language writes it: 22/11/2026 (pt), 22 Nov 2026 (en).
pub fn local_date(lang: Language, d: chrono::NaiveDate) -> String {
    match lang {
        Language::Pt => d.format("%d/%m/%Y").to_string(),
        Language::En => d.format("%d %b %Y").to_string(),
    }
}

/// Picks the language from an explicit choice, else the `Accept-Language` header (by q),
/// else English.
pub fn negotiate(choice: Option<&str>, accept_language: Option<&str>) -> Language {
    if let Some(l) = choice.and_then(|c| c.parse::<Language>().ok()) {
        return l;
    }
    let mut best: Option<(f32, Language)> = None;
    for part in accept_language.unwrap_or("").split(',') {
        let mut it = part.trim().split(';');
        let tag = it.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = it
            .find_map(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
            })
            .unwrap_or(1.0);
        let primary = tag.split('-').next().unwrap_or("");
        let lang = match primary {
            "pt" => Language::Pt,
            "en" => Language::En,
            _ => continue,
        };
        if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
            best = Some((q, lang));
        }
    }
    best.map(|(_, l)| l).unwrap_or(Language::En)
}

/// An amount as a message argument (minor units and currency), formatted in the reader's
/// language when the message is shown.
pub fn money(minor: i64, currency: &str) -> String {
    format!("\u{a4}{minor}\u{a4}{currency}")
}

fn money_arg(v: &str) -> Option<(i64, &str)> {
    let rest = v.strip_prefix('\u{a4}')?;
    let (minor, currency) = rest.split_once('\u{a4}')?;
    Some((minor.parse().ok()?, currency))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogs_have_the_same_keys() {
        let mut en = I18n::keys(Language::En);
        let mut pt = I18n::keys(Language::Pt);
        en.sort();
        pt.sort();
        let missing_pt: Vec<_> = en.iter().filter(|k| !pt.contains(k)).collect();
        let missing_en: Vec<_> = pt.iter().filter(|k| !en.contains(k)).collect();
        assert!(missing_pt.is_empty(), "missing in pt.ftl: {missing_pt:?}");
        assert!(missing_en.is_empty(), "missing in en.ftl: {missing_en:?}");
        assert!(en.len() > 50);
    }

    /// Each message's variables (`{ $name }`, in selectors too), by message id.
    fn variables(parts: &[&str]) -> std::collections::HashMap<String, Vec<String>> {
        let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
        let mut current: Option<String> = None;
        for line in parts.iter().flat_map(|s| s.lines()) {
            if line.starts_with('#') {
                current = None;
                continue;
            }
            if !line.starts_with([' ', '\t', '.', '*', '[', '}']) && line.contains(" =") {
                current = line.split(" =").next().map(|k| k.trim().to_string());
            }
            let Some(id) = &current else { continue };
            let vars = out.entry(id.clone()).or_default();
            for (i, _) in line.match_indices('$') {
                let name: String = line[i + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    .collect();
                if !vars.contains(&name) {
                    vars.push(name);
                }
            }
        }
        out
    }

    /// Arguments some refusals pass for the programs reading the JSON answer, not said in the
    /// message.
    const ARGS_FOR_PROGRAMS: &[(&str, &str)] = &[
        ("SeatRefusal::MinStay", "until"),
        ("CagnotteRefusal::RakeOverCap", "percent"),
        ("MoveRefusal::FirstHourAboveMax", "until"),
        ("JoinRefusal::Busy", "seconds"),
        ("JoinRefusal::Busy", "limit"),
        ("JoinRefusal::TooMany", "seconds"),
        ("JoinRefusal::TooMany", "limit"),
    ];

    /// Refusals of a write that lost a race to a concurrent one: what the winner wrote is not
    /// known to say.
    const NOT_KNOWN_IN_A_RACE: &[(&str, &str)] = &[
        ("LimitRefusal::PendingRace", "id"),
        ("RulingRefusal::CorrectedRace", "by"),
    ];

    /// Every typed refusal has its message in both catalogs, passes every variable its
    /// message uses (but what a lost race cannot know), and passes nothing the message does
    /// not use (but the arguments for programs).
    #[test]
    fn every_refusal_has_its_message_and_arguments() {
        let mut wrong = Vec::new();
        for (lang, parts) in [("en", EN), ("pt", PT)] {
            let msgs = variables(parts);
            for r in crate::domain::refusal::ALL.iter().copied().flatten() {
                let Some(vars) = msgs.get(r.key) else {
                    wrong.push(format!("{lang}: {} has no message {}", r.name, r.key));
                    continue;
                };
                for v in vars.iter().filter(|v| {
                    !r.args.contains(&v.as_str()) && !NOT_KNOWN_IN_A_RACE.contains(&(r.name, v))
                }) {
                    wrong.push(format!("{lang}: {} ({}) does not pass ${v}", r.name, r.key));
                }
                for a in r.args.iter().filter(|a| {
                    !vars.iter().any(|v| v == *a) && !ARGS_FOR_PROGRAMS.contains(&(r.name, a))
                }) {
                    wrong.push(format!("{lang}: {} ({}) passes {a}, unused", r.name, r.key));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        assert!(crate::domain::refusal::ALL.len() > 10);
    }

    #[test]
    fn messages_format_with_arguments() {
        let i = I18n::default();
        let en = i.msg(Language::En, "err-too-long", &[("max", "12".into())]);
        let pt = i.msg(Language::Pt, "err-too-long", &[("max", "12".into())]);
        assert!(en.contains("12") && pt.contains("12"));
        assert_ne!(en, pt);
        let d = [("date", "2026-11-22".to_string())];
        assert!(i
            .msg(Language::Pt, "err-under-18", &d)
            .contains("22/11/2026"));
        assert!(i
            .msg(Language::En, "err-under-18", &d)
            .contains("22 Nov 2026"));
    }

    /// A join code with a leading zero reaches the player whole (it was sent as "35149" for
    /// "035149", a code the form refuses: one code in ten); a plain number stays a number.
    #[test]
    fn digits_with_a_leading_zero_stay_as_written() {
        let i = I18n::default();
        for lang in [Language::En, Language::Pt] {
            let args = [
                ("code", "035149".to_string()),
                ("room", "Sala".to_string()),
                ("minutes", "10".to_string()),
            ];
            let m = i.msg(lang, "notify-join-code-sms", &args);
            assert!(m.starts_with("035149 "), "{m}");
            assert!(m.contains(" 10 min"), "{m}");
        }
        let m = i.msg(Language::En, "err-too-long", &[("max", "007".into())]);
        assert!(m.contains("007"), "{m}");
    }

    #[test]
    fn accept_language_negotiation() {
        assert_eq!(
            negotiate(None, Some("pt-BR,pt;q=0.9,en;q=0.8")),
            Language::Pt
        );
        assert_eq!(
            negotiate(None, Some("fr-FR,en;q=0.5,pt;q=0.4")),
            Language::En
        );
        assert_eq!(negotiate(None, Some("en;q=0.3, pt-PT;q=0.7")), Language::Pt);
        assert_eq!(negotiate(Some("pt"), Some("en")), Language::Pt);
        assert_eq!(negotiate(Some("xx"), None), Language::En);
    }
}
