//! Passwords (argon2) and signed session tokens (jsonwebtoken, HS256).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, Salt, SaltString};
use argon2::Argon2;
use chrono::{DateTime, Duration, Utc};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The keys every signature of the process uses (session tokens, player links, short
/// message addresses), made once from the configured secret.
#[derive(Clone)]
pub struct Keys {
    pub encoding: EncodingKey,
    pub decoding: DecodingKey,
    /// Signs the short addresses in text messages (`notify::link::short_code`), derived from
    /// the secret (SHA-256 of a label and it) so that no other signature shares it.
    pub short_links: [u8; 32],
}

impl Keys {
    pub fn from_secret(secret: &[u8]) -> Keys {
        // Every signature and check uses these keys: the HS256 provider is in place first.
        crate::jwt::install();
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(b"cardroom short message links\0");
        h.update(secret);
        Keys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            short_links: h.finalize().into(),
        }
    }
}

pub fn hash_password(pw: &str) -> String {
    // 16 random bytes from `rand`'s thread generator (a CSPRNG seeded by the OS), as
    // SaltString::generate would draw; its OsRng needs rand_core's `getrandom` feature, which
    // only jsonwebtoken's rust_crypto backend (through rand 0.8) happened to turn on.
    let mut bytes = [0u8; Salt::RECOMMENDED_LENGTH];
    rand::rng().fill(&mut bytes[..]);
    let salt = SaltString::encode_b64(&bytes).expect("16 bytes make a valid salt");
    Argon2::default()
        .hash_password(pw.as_bytes(), &salt)
        .expect("argon2 hashing")
        .to_string()
}

pub fn verify_password(pw: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| Argon2::default().verify_password(pw.as_bytes(), &h).is_ok())
        .unwrap_or(false)
}

/// A random URL-safe token (CSRF nonces, generated passwords, secrets).
pub fn random_token(bytes: usize) -> String {
    use base64::Engine;
    let mut buf = vec![0u8; bytes];
    rand::rng().fill(&mut buf[..]);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(buf)
}

/// Where a token may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    /// The page session cookie.
    Web,
    /// A Bearer token for `/api/v1`.
    Api,
    /// A paired dealer tablet (`sub` = tablet id, `ver` = the tablet's token version).
    Device,
    /// A tablet paired as the desk kiosk (`sub` = kiosk id, `ver` = the kiosk's
    /// token version). A kind of its own: a kiosk is neither a dealer tablet nor staff.
    Kiosk,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// Staff id.
    pub sub: i64,
    /// The staff member's token version: bumped by a password change to end other sessions.
    pub ver: i32,
    pub kind: TokenKind,
    /// The session's CSRF token (web sessions).
    pub csrf: String,
    /// The session row this token belongs to (web and API tokens; see
    /// `services::sessions`). Empty for device tokens, which tablets revoke on their own.
    #[serde(default)]
    pub sid: String,
    pub iat: i64,
    pub exp: i64,
}

pub fn issue(
    keys: &Keys,
    staff_id: i64,
    ver: i32,
    kind: TokenKind,
    sid: &str,
    now: DateTime<Utc>,
    hours: u32,
) -> (String, Claims) {
    let claims = Claims {
        sub: staff_id,
        ver,
        kind,
        csrf: random_token(24),
        sid: sid.to_string(),
        iat: now.timestamp(),
        exp: (now + Duration::hours(hours as i64)).timestamp(),
    };
    let token =
        encode(&Header::new(Algorithm::HS256), &claims, &keys.encoding).expect("HS256 encoding");
    (token, claims)
}

/// Why a token is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenError {
    /// Malformed, wrong signature, wrong algorithm (including `alg: none`).
    Invalid,
    Expired,
    WrongKind,
}

/// Verifies signature (HS256 only) and expiry against the application clock.
pub fn verify(
    keys: &Keys,
    token: &str,
    kind: TokenKind,
    now: DateTime<Utc>,
) -> Result<Claims, TokenError> {
    let mut v = Validation::new(Algorithm::HS256);
    // Expiry is checked against the application clock below (which tests can move).
    v.validate_exp = false;
    v.required_spec_claims = ["exp".to_string()].into_iter().collect();
    let data = decode::<Claims>(token, &keys.decoding, &v).map_err(|_| TokenError::Invalid)?;
    let c = data.claims;
    if c.exp <= now.timestamp() {
        return Err(TokenError::Expired);
    }
    if c.kind != kind {
        return Err(TokenError::WrongKind);
    }
    Ok(c)
}

/// Constant-time comparison for CSRF tokens.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn keys() -> Keys {
        Keys::from_secret(b"0123456789abcdef0123456789abcdef")
    }

    #[test]
    fn passwords_hash_and_verify() {
        let h = hash_password("correct horse battery");
        assert!(verify_password("correct horse battery", &h));
        assert!(!verify_password("wrong", &h));
        assert!(!verify_password("x", "not a hash"));
    }

    #[test]
    fn tokens_verify_and_expire() {
        let now = Utc::now();
        let (t, c) = issue(&keys(), 7, 0, TokenKind::Api, "s1", now, 12);
        assert_eq!(verify(&keys(), &t, TokenKind::Api, now).unwrap().sub, 7);
        assert_eq!(c.exp - c.iat, 12 * 3600);
        assert_eq!(
            verify(&keys(), &t, TokenKind::Web, now).unwrap_err(),
            TokenError::WrongKind
        );
        assert_eq!(
            verify(&keys(), &t, TokenKind::Api, now + Duration::hours(12)).unwrap_err(),
            TokenError::Expired
        );
        let other = Keys::from_secret(b"another-secret-another-secret-xx");
        assert_eq!(
            verify(&other, &t, TokenKind::Api, now).unwrap_err(),
            TokenError::Invalid
        );
    }

    #[test]
    fn alg_none_is_refused() {
        let now = Utc::now();
        let (t, _) = issue(&keys(), 1, 0, TokenKind::Api, "s1", now, 1);
        let payload = t.split('.').nth(1).unwrap();
        let header = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(br#"{"alg":"none","typ":"JWT"}"#);
        let forged = format!("{header}.{payload}.");
        assert_eq!(
            verify(&keys(), &forged, TokenKind::Api, now).unwrap_err(),
            TokenError::Invalid
        );
    }
}
