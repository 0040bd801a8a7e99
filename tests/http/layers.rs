//! The layers of the code, one way: a module uses only the modules of lower layers (and its
//! own). Read from the `crate::…` paths of every source file, so a handler reaching into a
//! layer above it, or a rule importing the web, fails here instead of in review.

/// The crate's top-level modules, lowest first. A module may use those of lower layers.
const LAYERS: &[&[&str]] = &[
    &["domain"],
    &["error", "jwt", "shutdown", "i18n", "metrics"],
    &["auth", "db"],
    &["audit_seal", "backup"],
    &["config"],
    &["notify", "push"],
    &["services"],
    &["web"],
    &["app", "demo"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level modules a file names through `crate::x` or `crate::{x, y}`.
fn uses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            group
                .split('}')
                .next()
                .unwrap_or_default()
                .split(',')
                .map(|p| p.trim().split("::").next().unwrap_or_default())
                .collect()
        } else {
            vec![rest
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default()]
        };
        out.extend(names.into_iter().map(str::to_string));
    }
    out
}

fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut wrong = Vec::new();
    let mut checked = 0;
    for path in &all {
        let rel = path.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" || top == "packaging" {
            continue;
        }
        let own = layer_of(&top).unwrap_or_else(|| panic!("{top} is in no layer: add it"));
        let text = std::fs::read_to_string(path).unwrap();
        // The code, not its comments nor its unit tests (a rule's test may read the
        // catalogs its refusal is shown with).
        let code = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        let code: String = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for used in uses(&code) {
            // A macro (`crate::native!`) or the module itself.
            let Some(l) = layer_of(&used) else { continue };
            checked += 1;
            if used != top && l >= own {
                wrong.push(format!("{}: uses crate::{used}", rel.display()));
            }
        }
    }
    assert!(
        checked > 500,
        "only {checked} uses read: the scan is broken"
    );
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_scan_reads_grouped_and_plain_paths() {
    assert_eq!(
        uses("use crate::{db::DbConn, web::ctx};\nlet x = crate::services::room::get(c);"),
        vec!["db", "web", "services"]
    );
}

#[test]
fn no_handler_reaches_into_the_database() {
    // The web's handlers call services (or `db` for its own plumbing); they build no query.
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut all = Vec::new();
    files(&web, &mut all);
    assert!(all.len() > 40, "only {} files read", all.len());
    let queries: Vec<String> = all
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.contains("diesel::") || text.contains("db::schema")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(queries.is_empty(), "queries in web handlers: {queries:?}");
}
