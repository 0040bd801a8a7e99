//! The only JWT algorithm the application signs and accepts, HS256, as jsonwebtoken's
//! crypto provider.
//!
//! Why our own provider: jsonwebtoken 11 ships two, and both bring far more than HMAC. Its
//! `rust_crypto` feature pulls `rsa` (RUSTSEC-2023-0071, the Marvin timing attack, unfixed),
//! `p256`, `p384` and `ed25519-dalek`; `aws_lc_rs` builds a C/assembly library. Session
//! tokens, API tokens and player links are all HS256 with the server's secret (see `auth`
//! and `notify::link`), so jsonwebtoken is built with no features and this provider
//! answers HS256 with `hmac` + `sha2` (the same RustCrypto crates jsonwebtoken's own HMAC
//! code uses, so tokens are byte-for-byte what version 10 produced). Any other algorithm is
//! refused as `InvalidAlgorithm`, on signing and on verifying: a token whose header names
//! RS256, ES256 or `none` never reaches a verifier (our `Validation`s list HS256 only anyway).
//!
//! jsonwebtoken keeps the provider in a process-wide `OnceLock`; [`install`] is idempotent
//! and is called wherever keys are made (`auth::Keys::from_secret`), so no signing or
//! verifying can run before it.

use hmac::{Hmac, Mac};
use jsonwebtoken::crypto::{CryptoProvider, JwtSigner, JwtVerifier, KeyUtils};
use jsonwebtoken::errors::{ErrorKind, Result};
use jsonwebtoken::signature::{self, Signer, Verifier};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey, EncodingKey};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// HS256 only. JWK helpers are not provided: the application reads no JWK (they would panic
/// with jsonwebtoken's own message, and nothing user-reachable calls them).
pub static HS256_ONLY: CryptoProvider = CryptoProvider {
    signer_factory,
    verifier_factory,
    key_utils: KeyUtils::new_unimplemented(),
};

/// Makes [`HS256_ONLY`] jsonwebtoken's provider for this process (idempotent).
///
/// Panics if another provider was installed first: that would be a build that enabled one of
/// jsonwebtoken's own backends and used it before our keys were made, a programming error
/// caught by every test that signs a token.
pub fn install() {
    if let Err(other) = HS256_ONLY.install_default() {
        assert!(
            std::ptr::eq(other, &HS256_ONLY),
            "another jsonwebtoken crypto provider is installed; only HS256 is expected"
        );
    }
}

fn hmac_key(family: AlgorithmFamily, secret: &[u8]) -> Result<HmacSha256> {
    if family != AlgorithmFamily::Hmac {
        return Err(ErrorKind::InvalidKeyFormat.into());
    }
    HmacSha256::new_from_slice(secret).map_err(|_| ErrorKind::InvalidKeyFormat.into())
}

fn signer_factory(alg: &Algorithm, key: &EncodingKey) -> Result<Box<dyn JwtSigner>> {
    match alg {
        Algorithm::HS256 => Ok(Box::new(Hs256(hmac_key(key.family(), key.as_bytes())?))),
        _ => Err(ErrorKind::InvalidAlgorithm.into()),
    }
}

fn verifier_factory(alg: &Algorithm, key: &DecodingKey) -> Result<Box<dyn JwtVerifier>> {
    match alg {
        Algorithm::HS256 => Ok(Box::new(Hs256(hmac_key(
            key.family(),
            key.try_get_as_bytes()?,
        )?))),
        _ => Err(ErrorKind::InvalidAlgorithm.into()),
    }
}

/// An HMAC-SHA256 state keyed once; each signature or check starts from a clone of it.
struct Hs256(HmacSha256);

impl Signer<Vec<u8>> for Hs256 {
    fn try_sign(&self, msg: &[u8]) -> std::result::Result<Vec<u8>, signature::Error> {
        let mut mac = self.0.clone();
        mac.update(msg);
        Ok(mac.finalize().into_bytes().to_vec())
    }
}

impl Verifier<Vec<u8>> for Hs256 {
    fn verify(&self, msg: &[u8], sig: &Vec<u8>) -> std::result::Result<(), signature::Error> {
        let mut mac = self.0.clone();
        mac.update(msg);
        // Constant-time comparison (hmac's verify_slice).
        mac.verify_slice(sig).map_err(signature::Error::from_source)
    }
}

impl JwtSigner for Hs256 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::HS256
    }
}

impl JwtVerifier for Hs256 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::HS256
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::{decode, encode, Header, Validation};
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct C {
        sub: i64,
        exp: i64,
    }

    /// RFC 7515 appendix A.1: the HS256 example's signing input, key and signature.
    #[test]
    fn rfc_7515_a1_hs256_example() {
        install();
        let key = base64::Engine::decode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow",
        )
        .unwrap();
        let input = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
        let sig = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let made = jsonwebtoken::crypto::sign(
            input.as_bytes(),
            &EncodingKey::from_secret(&key),
            Algorithm::HS256,
        )
        .unwrap();
        assert_eq!(made, sig);
        let dk = DecodingKey::from_secret(&key);
        assert!(
            jsonwebtoken::crypto::verify(sig, input.as_bytes(), &dk, Algorithm::HS256).unwrap()
        );
        let mut bad = input.to_string();
        bad.push('x');
        assert!(!jsonwebtoken::crypto::verify(sig, bad.as_bytes(), &dk, Algorithm::HS256).unwrap());
    }

    #[test]
    fn other_algorithms_are_refused() {
        install();
        let ek = EncodingKey::from_secret(b"0123456789abcdef0123456789abcdef");
        let dk = DecodingKey::from_secret(b"0123456789abcdef0123456789abcdef");
        let c = C {
            sub: 1,
            exp: 4_000_000_000,
        };
        for alg in [
            Algorithm::HS384,
            Algorithm::HS512,
            Algorithm::RS256,
            Algorithm::ES256,
        ] {
            let e = encode(&Header::new(alg), &c, &ek).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::InvalidAlgorithm),
                "{alg:?}: {e}"
            );
        }
        // A token claiming HS512 is refused even by a validation that would allow it.
        let t = encode(&Header::new(Algorithm::HS256), &c, &ek).unwrap();
        let mut v = Validation::new(Algorithm::HS512);
        v.algorithms = vec![Algorithm::HS256, Algorithm::HS512];
        assert_eq!(decode::<C>(&t, &dk, &v).unwrap().claims, c);
        let (_, rest) = t.split_once('.').unwrap();
        let h512 = base64::Engine::encode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            br#"{"typ":"JWT","alg":"HS512"}"#,
        );
        let forged = format!("{h512}.{rest}");
        assert!(decode::<C>(&forged, &dk, &v).is_err());
        install(); // idempotent
    }
}
