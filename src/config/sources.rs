//! Reading the settings from their sources: the defaults, the file (with keys written at
//! the top of the file, as before the sections, moved into their sections) and the
//! environment.

use super::*;
use figment::providers::Serialized;
use figment::Figment;

/// The file's settings with the keys written at the top of the file, as before the sections,
/// moved into their sections, so a room's existing file keeps working (a key already in its
/// section wins). Returns the keys moved, for the warning at start.
fn sectioned(
    file: impl figment::Provider,
    name: &str,
) -> Result<(Serialized<figment::value::Dict>, Vec<String>), ConfigError> {
    use figment::value::{Dict, Tag, Value};
    let data = file.data().map_err(|e| bad(name, e.to_string()))?;
    let mut dict: Dict = data.into_values().flatten().collect();
    let mut moved = Vec::new();
    for (flat, nested) in SETTINGS {
        let Some(v) = dict.remove(*flat) else {
            continue;
        };
        let (section, key) = nested.split_once('.').expect("section.key");
        let entry = dict
            .entry(section.to_string())
            .or_insert_with(|| Value::Dict(Tag::Default, Dict::new()));
        if let Value::Dict(_, d) = entry {
            d.entry(key.to_string()).or_insert(v);
        }
        moved.push(flat.to_string());
    }
    Ok((Serialized::defaults(dict), moved))
}

impl Settings {
    /// The defaults, then `file` (named `name` in errors), then the `CARDROOM_*` variables
    /// among `vars` that are settings (see [`SETTINGS`]); not yet checked.
    ///
    /// The file is TOML and says its own types: it is read first, strictly (a number written
    /// in quotes for a number setting is refused, as before). A variable is text and stays
    /// the exact text given: a text setting keeps it as it is (`CARDROOM_SMS_FROM=+15551234567`
    /// stays `+15551234567`, `0123` keeps its zero, `true` or `1e5` stay words), and only a
    /// number or a switch setting reads its number or its switch from it.
    pub fn from_sources(
        file: impl figment::Provider,
        name: &str,
        vars: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Settings, ConfigError> {
        let (file, flat_keys) = sectioned(file, name)?;
        let figment = Figment::from(Serialized::defaults(Settings::default())).merge(file);
        let from_file: Settings = figment.extract().map_err(|e| refusal(e, name))?;
        let vars: Vec<(&'static str, String)> = vars
            .into_iter()
            .filter_map(|(var, value)| key_of_env(&var).map(|key| (key, value)))
            .collect();
        let mut settings = if vars.is_empty() {
            from_file
        } else {
            // The file's settings, already in their types, then each variable as text: the
            // lossy reading turns text into a number or a switch only where the setting is
            // one (the file's values are typed already, so it changes nothing of theirs).
            let mut figment = Figment::from(Serialized::defaults(&from_file));
            for (key, value) in vars {
                figment =
                    figment.merge(Serialized::default(key, figment::value::Value::from(value)));
            }
            figment.extract_lossy().map_err(|e| refusal(e, name))?
        };
        settings.flat_keys = flat_keys;
        Ok(settings)
    }
}

/// A setting that cannot be read: named by its variable (or the file's key).
fn refusal(e: figment::Error, name: &str) -> ConfigError {
    let path = e.path.join(".");
    if let figment::error::Kind::UnknownField(field, _) = &e.kind {
        // The path names the unknown key itself, under its section if any.
        let key = if path.is_empty() { field.clone() } else { path };
        let message = match SETTINGS.iter().find(|(flat, _)| *flat == key) {
            Some((_, nested)) => {
                let (section, k) = nested.split_once('.').expect("section.key");
                format!("{name}: `{key}` is not a key at the top of the file: write it as `{k}` in its section [{section}]")
            }
            None => format!("{name}: `{key}` is not a setting"),
        };
        return bad(&key, message);
    }
    let setting = env_name(&path).unwrap_or_else(|| {
        if path.is_empty() {
            name.to_string()
        } else {
            path
        }
    });
    bad(&setting, e.kind.to_string())
}
