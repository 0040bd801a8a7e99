//! Who is at the other end: the client's address, through trusted reverse proxies only.

use actix_web::HttpRequest;
use std::net::IpAddr;

/// The client's address. The TCP peer, unless the peer is one of the configured reverse
/// proxies (`CARDROOM_TRUSTED_PROXIES`): then the right-most `X-Forwarded-For` entry that is
/// not itself a trusted proxy (entries to its left were written by whoever sent the request
/// and prove nothing).
pub fn client_ip(req: &HttpRequest, trusted: &[IpAddr]) -> IpAddr {
    let peer = req
        .peer_addr()
        .map(|a| a.ip())
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    from_forwarded(peer, forwarded_for(req).as_deref(), trusted)
}

fn forwarded_for(req: &HttpRequest) -> Option<String> {
    let all: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .collect();
    (!all.is_empty()).then(|| all.join(","))
}

/// The rule of [`client_ip`] on plain values (tested without a request).
pub fn from_forwarded(peer: IpAddr, xff: Option<&str>, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let Some(xff) = xff else { return peer };
    let mut hops = xff.split(',').map(str::trim).rev();
    for hop in &mut hops {
        match hop.parse::<IpAddr>() {
            Ok(ip) if trusted.contains(&ip) => continue,
            Ok(ip) => return ip,
            // Garbage where an address should be: stop believing the header.
            Err(_) => return peer,
        }
    }
    peer
}

/// What a sign-in records about where it came from.
pub fn sign_in_from(
    req: &HttpRequest,
    st: &crate::web::state::AppState,
    kind: crate::services::sessions::SessionKind,
) -> crate::web::state::SignInFrom {
    crate::web::state::SignInFrom {
        kind,
        user_agent: req
            .headers()
            .get(actix_web::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string(),
        address: client_ip(req, &st.config.server.trusted_proxies).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_a_trusted_proxys_header_is_believed() {
        let proxy = [ip("10.0.0.1")];
        // Straight from a client: its header is ignored.
        assert_eq!(
            from_forwarded(ip("192.0.2.9"), Some("203.0.113.5"), &proxy),
            ip("192.0.2.9")
        );
        // Through the proxy: the address the proxy saw.
        assert_eq!(
            from_forwarded(ip("10.0.0.1"), Some("203.0.113.5"), &proxy),
            ip("203.0.113.5")
        );
        // A client that wrote its own header before the proxy appended: the right-most wins.
        assert_eq!(
            from_forwarded(ip("10.0.0.1"), Some("1.2.3.4, 203.0.113.5"), &proxy),
            ip("203.0.113.5")
        );
        // Two proxies in a row.
        let two = [ip("10.0.0.1"), ip("10.0.0.2")];
        assert_eq!(
            from_forwarded(ip("10.0.0.1"), Some("203.0.113.5, 10.0.0.2"), &two),
            ip("203.0.113.5")
        );
        assert_eq!(
            from_forwarded(ip("10.0.0.1"), Some("junk"), &proxy),
            ip("10.0.0.1")
        );
        assert_eq!(from_forwarded(ip("10.0.0.1"), None, &proxy), ip("10.0.0.1"));
    }
}
