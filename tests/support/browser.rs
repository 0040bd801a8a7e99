//! Helpers for the real-browser test (`tests/browser.rs` and its modules in `tests/browser/`):
//! the server (from `support/app.rs`) and chromedriver launchers, a tiny raw-TCP HTTP probe,
//! and failure messages that show where the browser was.

#![allow(dead_code)]

use fantoccini::error::CmdError;
use fantoccini::{Client, ClientBuilder, Locator};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The server the browser tests drive is `TestApp::builder()…spawn_binary(..)`
/// (`support/app.rs`), usually through [`browser_app`]; its process helpers are shared from there.
// Not every includer uses each of them (tests/binary.rs starts its server itself).
#[allow(unused_imports)]
pub use crate::app::{
    free_port, http_head, http_status, Backend, ChildGuard, ClockKind, Server, TestApp,
    TestAppBuilder, ADMIN_PW as ADMIN_PASSWORD, SECRET,
};

/// The app as the browser tests run it: the real binary (`spawn_binary`) on SQLite, a file
/// in the test's directory that the test may open too (as `tests/run.sh` runs them).
pub fn browser_app<'a>() -> TestAppBuilder<'a> {
    TestApp::builder().backend(Backend::Sqlite)
}

/// chromedriver, or None when it is not installed and the test is to be skipped (it says
/// so). With `CARDROOM_REQUIRE_BROWSER=1` (set by `tests/run.sh`) a missing chromedriver is
/// a failure instead.
pub fn chromedriver_or_skip() -> Option<PathBuf> {
    let found = find_chromedriver();
    if found.is_none() {
        if std::env::var("CARDROOM_REQUIRE_BROWSER").as_deref() == Ok("1") {
            panic!(
                "CARDROOM_REQUIRE_BROWSER=1 but chromedriver is not installed \
                 (looked for /usr/bin/chromedriver and chromedriver in PATH); \
                 on Debian: apt-get install chromium chromium-driver"
            );
        }
        println!("skipping: chromedriver not installed");
    }
    found
}

/// `/usr/bin/chromedriver`, else `chromedriver` found in `PATH`.
pub fn find_chromedriver() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/chromedriver");
    if is_executable(&fixed) {
        return Some(fixed);
    }
    find_in_path("chromedriver")
}

/// `/usr/bin/chromium` when present (Debian's package); otherwise chromedriver finds a browser.
pub fn find_chromium() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/chromium");
    if is_executable(&fixed) {
        return Some(fixed);
    }
    None
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The `Location` of the answer to `GET path` (a redirect), if any.
pub fn http_location(addr: SocketAddr, path: &str) -> Option<String> {
    let text = http_head(addr, path, |b| b.windows(4).any(|w| w == b"\r\n\r\n"))?;
    text.lines().take_while(|l| !l.is_empty()).find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("location")
            .then(|| value.trim().to_string())
    })
}

/// Waits until something accepts TCP connections on `addr`.
pub fn wait_for_tcp(
    addr: SocketAddr,
    timeout: Duration,
    guard: &mut ChildGuard,
) -> Result<(), String> {
    let deadline = Instant::now() + timeout;
    loop {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok() {
            return Ok(());
        }
        if let Some(status) = guard.exited() {
            return Err(format!(
                "{} exited before listening on {addr}: {status}",
                guard.name
            ));
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "{} did not listen on {addr} within {timeout:?}",
                guard.name
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// chromedriver on a free port; the WebDriver URL and its guard.
pub fn start_chromedriver(path: &Path, log_dir: &Path) -> (String, ChildGuard) {
    let mut last_problem = String::new();
    for _ in 1..=3 {
        let port = free_port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let mut cmd = Command::new(path);
        cmd.arg(format!("--port={port}"))
            .arg(format!(
                "--log-path={}",
                log_dir.join("chromedriver.log").display()
            ))
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        let mut guard = ChildGuard::spawn("chromedriver", cmd);
        match wait_for_tcp(addr, Duration::from_secs(20), &mut guard) {
            Ok(()) => return (format!("http://{addr}"), guard),
            Err(e) => last_problem = e,
        }
    }
    panic!(
        "could not start chromedriver ({}): {last_problem}",
        path.display()
    );
}

/// WebDriver capabilities for headless Chromium with a fresh profile in `profile_dir`.
pub fn chrome_capabilities(profile_dir: &Path) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::json;
    let mut args = vec![
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
        "--lang=en-US",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    args.push(format!("--user-data-dir={}", profile_dir.display()));
    let mut options = json!({
        "args": args,
        "prefs": { "intl.accept_languages": "en-US,en" },
    });
    if let Some(bin) = find_chromium() {
        options["binary"] = json!(bin.display().to_string());
    }
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert("goog:chromeOptions".into(), options);
    caps
}

/// Where screenshots go: `<repo>/target/<name>` (the `target/` directory is created if needed).
pub fn artifact_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// Saves a screenshot for humans; a failure to do so is reported, never fatal.
pub async fn screenshot(client: &Client, name: &str) {
    let path = artifact_path(name);
    match client.screenshot().await {
        Ok(png) => match std::fs::write(&path, png) {
            Ok(()) => eprintln!("screenshot: {}", path.display()),
            Err(e) => eprintln!("could not write {}: {e}", path.display()),
        },
        Err(e) => eprintln!("could not take screenshot {name}: {e}"),
    }
}

/// `CARDROOM_DOCS_SCREENSHOTS=1`: the browser tests also write the README's pictures to
/// `docs/screenshots/` (see [`docs_screenshot`]). One command refreshes them all:
/// `CARDROOM_DOCS_SCREENSHOTS=1 cargo nextest run --test browser`.
pub fn docs_screenshots() -> bool {
    std::env::var("CARDROOM_DOCS_SCREENSHOTS").as_deref() == Ok("1")
}

/// `<repo>/docs/screenshots/<name>`.
pub fn docs_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join("screenshots")
        .join(name)
}

/// With `CARDROOM_DOCS_SCREENSHOTS=1`, saves what the browser shows in a `w`×`h` viewport to
/// `docs/screenshots/<name>` (a picture of the README), then gives the window its size back so
/// the test goes on as before; otherwise does nothing. Readers see these pictures at the
/// sizes the pages are made for (1440×900 for the floor and the back office, 1024×768 for a
/// tablet, 390×844 for a phone), whatever size the test works at. Never fatal: a picture is
/// not what the test checks.
pub async fn docs_screenshot(client: &Client, name: &str, w: u32, h: u32) {
    if !docs_screenshots() {
        return;
    }
    let path = docs_path(name);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let before = client.get_window_size().await.ok();
    set_viewport(client, w, h, name).await;
    // The layout after a resize settles in a frame or two (charts redraw on resize).
    tokio::time::sleep(Duration::from_millis(400)).await;
    match client.screenshot().await {
        Ok(png) => match std::fs::write(&path, png) {
            Ok(()) => eprintln!("docs screenshot ({w}×{h}): {}", path.display()),
            Err(e) => eprintln!("could not write {}: {e}", path.display()),
        },
        Err(e) => eprintln!("could not take the docs screenshot {name}: {e}"),
    }
    if let Some((ww, wh)) = before {
        let _ = client.set_window_size(ww as u32, wh as u32).await;
    }
}

/// Sizes the window so that the viewport (`innerWidth`×`innerHeight`) is `w`×`h`: the window
/// is grown by what the browser's frame takes. `what` names the browser in messages.
pub async fn set_viewport(client: &Client, w: u32, h: u32, what: &str) {
    ok(
        client,
        client.set_window_size(w, h).await,
        &format!("setting the window to {w}×{h}"),
    )
    .await;
    let inner = client
        .execute("return [innerWidth, innerHeight];", vec![])
        .await
        .ok();
    let (iw, ih) = match inner
        .as_ref()
        .and_then(|v| Some((v[0].as_u64()?, v[1].as_u64()?)))
    {
        Some(x) => x,
        None => return,
    };
    if (iw, ih) != (w as u64, h as u64) {
        let (ww, wh) = (
            w + (w as u64).saturating_sub(iw) as u32,
            h + (h as u64).saturating_sub(ih) as u32,
        );
        ok(
            client,
            client.set_window_size(ww, wh).await,
            &format!("setting the window to {ww}×{wh}"),
        )
        .await;
        let now = client
            .execute("return [innerWidth, innerHeight];", vec![])
            .await
            .ok();
        eprintln!("{what}: viewport was {iw}×{ih} in a {w}×{h} window; window now {ww}×{wh}, viewport {now:?}");
    }
}

/// Scrolls the page to its top (before a picture of a whole page).
pub async fn scroll_to_top(client: &Client) {
    let _ = client
        .execute("window.scrollTo(0, 0); return true;", vec![])
        .await;
}

/// Where the browser is: the current URL and the first 2000 characters of the page source.
pub async fn where_we_are(client: &Client) -> String {
    let url = match client.current_url().await {
        Ok(u) => u.to_string(),
        Err(e) => format!("<no URL: {e}>"),
    };
    let source = match client.source().await {
        Ok(s) => s.chars().take(2000).collect::<String>(),
        Err(e) => format!("<no page source: {e}>"),
    };
    format!("current URL: {url}\n--- page source (first 2000 chars) ---\n{source}\n--- end of excerpt ---")
}

/// Fails the test with `what`, the browser's location and page source, after saving
/// `target/browser-failure.png`.
pub async fn fail(client: &Client, what: impl std::fmt::Display) -> ! {
    screenshot(client, "browser-failure.png").await;
    let context = where_we_are(client).await;
    panic!("{what}\n{context}");
}

/// Unwraps a WebDriver result, or fails with the browser's location.
pub async fn ok<T>(client: &Client, r: Result<T, CmdError>, what: &str) -> T {
    match r {
        Ok(v) => v,
        Err(e) => fail(client, format!("{what}: {e}")).await,
    }
}

/// Waits (up to 10 s) for an element matching the CSS selector.
pub async fn wait_css(client: &Client, css: &str) -> fantoccini::elements::Element {
    let r = client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(css))
        .await;
    ok(
        client,
        r,
        &format!("waiting up to 10 s for element `{css}`"),
    )
    .await
}

/// Waits (up to 10 s) until the path of the current URL satisfies `pred`; returns the path.
pub async fn wait_path(client: &Client, describe: &str, pred: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let url = ok(
            client,
            client.current_url().await,
            "reading the current URL",
        )
        .await;
        if pred(url.path()) {
            return url.path().to_string();
        }
        if Instant::now() >= deadline {
            fail(
                client,
                format!("waited 10 s for the URL path to be {describe}"),
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Clears a text input found by CSS selector and types `text` into it.
pub async fn type_into(client: &Client, css: &str, text: &str) {
    let el = wait_css(client, css).await;
    ok(client, el.clear().await, &format!("clearing `{css}`")).await;
    ok(
        client,
        el.send_keys(text).await,
        &format!("typing into `{css}`"),
    )
    .await;
}

/// Sets an input's value with JavaScript (date inputs: typing into them depends on the
/// browser's locale) and fires `input`/`change` like a user edit would.
pub async fn set_value_js(client: &Client, css: &str, value: &str) {
    wait_css(client, css).await;
    let script = "const el = document.querySelector(arguments[0]);\
                  el.value = arguments[1];\
                  el.dispatchEvent(new Event('input', { bubbles: true }));\
                  el.dispatchEvent(new Event('change', { bubbles: true }));\
                  return el.value;";
    let r = client
        .execute(
            script,
            vec![serde_json::json!(css), serde_json::json!(value)],
        )
        .await;
    let got = ok(client, r, &format!("setting `{css}` with JavaScript")).await;
    if got.as_str() != Some(value) {
        fail(
            client,
            format!("`{css}` holds {got} after setting it to {value:?}"),
        )
        .await;
    }
}

/// Picks an `<option>` of a `<select>` by its value.
pub async fn select_value(client: &Client, css: &str, value: &str) {
    let el = wait_css(client, css).await;
    ok(
        client,
        el.select_by_value(value).await,
        &format!("selecting {value:?} in `{css}`"),
    )
    .await;
}

/// The `value` property of the element matching `css` (empty when absent).
pub async fn value_of(client: &Client, css: &str) -> String {
    let el = wait_css(client, css).await;
    ok(
        client,
        el.prop("value").await,
        &format!("reading the value of `{css}`"),
    )
    .await
    .unwrap_or_default()
}

/// Writes a 200×260 PNG portrait (a face-coloured oval on a blue background) to `path`.
pub fn write_test_png(path: &Path) {
    let img = image::RgbImage::from_fn(200, 260, |x, y| {
        let (dx, dy) = (x as i64 - 100, y as i64 - 110);
        if dx * dx * 100 / (60 * 60) + dy * dy * 100 / (80 * 80) <= 100 {
            image::Rgb([224, 180, 150])
        } else if y > 200 {
            image::Rgb([40, 60, 90])
        } else {
            image::Rgb([90, 140, 200])
        }
    });
    img.save(path)
        .unwrap_or_else(|e| panic!("could not write test PNG {}: {e}", path.display()));
}

/// One HTTP/1.1 request on a raw TCP connection (`Connection: close`, 10 s timeouts), with an
/// optional Bearer token and JSON body; the status code and the body (chunked bodies are
/// decoded). For the JSON API from a browser test, without an HTTP client crate.
pub fn http_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<&serde_json::Value>,
) -> Result<(u16, String), String> {
    let payload = body.map(|b| b.to_string());
    http_body(
        addr,
        method,
        path,
        bearer,
        payload
            .as_deref()
            .map(|p| ("application/json", p.as_bytes())),
    )
}

/// [`http_json`] with any body: its content type and bytes (e.g. a photo, `image/png`).
pub fn http_body(
    addr: SocketAddr,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<(&str, &[u8])>,
) -> Result<(u16, String), String> {
    let what = format!("{method} {path}");
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(3))
        .map_err(|e| format!("{what}: connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| format!("{what}: {e}"))?;
    s.set_write_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| format!("{what}: {e}"))?;
    let payload: &[u8] = body.map_or(&[], |(_, b)| b);
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\n");
    if let Some(t) = bearer {
        req.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    if let Some((kind, _)) = body {
        req.push_str(&format!("Content-Type: {kind}\r\n"));
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n", payload.len()));
    let mut bytes = req.into_bytes();
    bytes.extend_from_slice(payload);
    s.write_all(&bytes)
        .map_err(|e| format!("{what}: write: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .map_err(|e| format!("{what}: read: {e}"))?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| format!("{what}: no complete response head ({} bytes)", raw.len()))?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut rest = raw[split + 4..].to_vec();
    let status = head
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(|| format!("{what}: no status line in {head:?}"))?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    if chunked {
        let mut out = Vec::new();
        while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(
                String::from_utf8_lossy(&rest[..eol])
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim(),
                16,
            )
            .unwrap_or(0);
            if size == 0 || rest.len() < eol + 2 + size {
                break;
            }
            out.extend_from_slice(&rest[eol + 2..eol + 2 + size]);
            rest.drain(..(eol + 2 + size + 2).min(rest.len()));
        }
        rest = out;
    }
    Ok((status, String::from_utf8_lossy(&rest).to_string()))
}

/// A new Chromium session through chromedriver, with its own profile directory `dir/profile`
/// and a viewport of exactly `w`×`h` (the window is grown by what the browser's frame takes).
pub async fn open_session(
    webdriver_url: &str,
    dir: &Path,
    profile: &str,
    w: u32,
    h: u32,
) -> Client {
    let profile_dir = dir.join(profile);
    std::fs::create_dir_all(&profile_dir).expect("chrome profile directory");
    let mut builder = ClientBuilder::native();
    builder.capabilities(chrome_capabilities(&profile_dir));
    let client = match tokio::time::timeout(Duration::from_secs(60), builder.connect(webdriver_url)).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => panic!(
            "could not open a Chromium session ({profile}) through chromedriver at {webdriver_url}: {e}\n\
             (chromedriver's log: {})",
            dir.join("chromedriver.log").display()
        ),
        Err(_) => panic!("opening a Chromium session ({profile}) through chromedriver took more than 60 s"),
    };
    set_viewport(&client, w, h, profile).await;
    client
}

/// Signs in on `/login` and waits for the page it leads to; fails (with a screenshot) on a
/// refusal or if the browser is still on `/login` after 10 s.
pub async fn sign_in(c: &Client, base: &str, user: &str, password: &str) {
    ok(c, c.goto(&format!("{base}/login")).await, "opening /login").await;
    wait_css(c, "#login-form").await;
    type_into(c, "#login-form input[name=username]", user).await;
    type_into(c, "#login-form input[name=password]", password).await;
    ok(
        c,
        wait_css(c, "#login-submit").await.click().await,
        "clicking #login-submit",
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let url = ok(c, c.current_url().await, "reading the current URL").await;
        if url.path() != "/login" {
            break;
        }
        if c.find(Locator::Css("#login-error")).await.is_ok() || Instant::now() >= deadline {
            fail(c, format!("signing in as {user:?} did not leave /login")).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    wait_css(c, "main").await;
}
