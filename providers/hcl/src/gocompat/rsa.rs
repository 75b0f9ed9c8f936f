//! Go's RSA private-key path as Terraform's `rsadecrypt` takes it:
//! `ssh.ParseRawPrivateKey` (for RSA keys: `x509.ParsePKCS1PrivateKey` for `RSA PRIVATE
//! KEY` blocks, `x509.ParsePKCS8PrivateKey` for `PRIVATE KEY`), then Go 1.20's
//! `rsa.DecryptPKCS1v15`.
//!
//! The `rsa` crate does the DER decoding and the raw RSA operation (`hazmat::rsa_decrypt`);
//! what is Go's here, and why this is not simply the crate's `decrypt` with
//! `Pkcs1v15Encrypt`, is what Terraform shows: the choice of decoder by PEM type, Go's
//! error texts (`ssh: no key found`, `asn1: syntax error: data truncated`, `x509: failed
//! to parse private key (use ParsePKCS8PrivateKey instead for this key format)`, the Go
//! type of a non-RSA key), and Go's EME-PKCS1-v1_5 check written as Go writes it (input
//! length rules, constant-time padding scan, `crypto/rsa: decryption error` for every
//! failure).

use crate::gocompat::pem::pem_decode;

/// Why a private key was rejected, split the way Terraform words its errors.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum KeyError {
    /// An `asn1.SyntaxError`: Terraform replaces its `asn1: syntax error` prefix.
    Asn1Syntax(String),
    /// Any other error, shown after `invalid private key: `.
    Other(String),
    /// A valid key that is not RSA: the Go type `ssh.ParseRawPrivateKey` returns.
    NotRsa(&'static str),
}

const DECRYPTION_ERROR: &str = "crypto/rsa: decryption error";

/// `ssh.ParseRawPrivateKey` for the RSA cases.
pub(crate) fn parse_raw_private_key(pem: &[u8]) -> Result<rsa::PrivateKey, KeyError> {
    let block = pem_decode(pem).ok_or_else(|| KeyError::Other("ssh: no key found".into()))?;
    let encrypted = block
        .headers
        .iter()
        .rev()
        .find(|(k, _)| k == "Proc-Type")
        .is_some_and(|(_, v)| v.contains("ENCRYPTED"));
    if encrypted {
        return Err(KeyError::Other(
            "ssh: this private key is passphrase protected".into(),
        ));
    }
    match block.kind.as_str() {
        "RSA PRIVATE KEY" => parse_pkcs1(&block.bytes),
        "PRIVATE KEY" => parse_pkcs8(&block.bytes),
        "EC PRIVATE KEY" => Err(KeyError::NotRsa("*ecdsa.PrivateKey")),
        "DSA PRIVATE KEY" => Err(KeyError::NotRsa("*dsa.PrivateKey")),
        other => Err(KeyError::Other(format!(
            "ssh: unsupported key type {}",
            crate::types::go_quote(other)
        ))),
    }
}

/// The `asn1: syntax error` texts of Go's decoder for the DER errors that have one.
fn asn1_syntax(e: &rsa::pkcs1::der::Error) -> Option<&'static str> {
    use rsa::pkcs1::der::ErrorKind;
    match e.kind() {
        ErrorKind::Incomplete { .. } => Some("data truncated"),
        ErrorKind::TrailingData { .. } => Some("trailing data"),
        _ => None,
    }
}

/// `x509.ParsePKCS1PrivateKey`.
fn parse_pkcs1(der: &[u8]) -> Result<rsa::PrivateKey, KeyError> {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    rsa::PrivateKey::from_pkcs1_der(der).map_err(|e| match e {
        rsa::pkcs1::Error::Asn1(a) => {
            if rsa::pkcs8::PrivateKeyInfoRef::try_from(der).is_ok() {
                KeyError::Other(
                    "x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)"
                        .into(),
                )
            } else {
                match asn1_syntax(&a) {
                    Some(msg) => KeyError::Asn1Syntax(msg.into()),
                    None => KeyError::Asn1Syntax(a.to_string()),
                }
            }
        }
        rsa::pkcs1::Error::Version => {
            KeyError::Other("x509: unsupported private key version".into())
        }
        other => KeyError::Other(format!("x509: invalid RSA private key: {other}")),
    })
}

/// `x509.ParsePKCS8PrivateKey`; only RSA keys are decoded, other algorithms give the type
/// error Terraform reports for them.
fn parse_pkcs8(der: &[u8]) -> Result<rsa::PrivateKey, KeyError> {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    const RSA: &str = "1.2.840.113549.1.1.1";
    const EC: &str = "1.2.840.10045.2.1";
    const ED25519: &str = "1.3.101.112";
    const X25519: &str = "1.3.101.110";
    let info = match rsa::pkcs8::PrivateKeyInfoRef::try_from(der) {
        Ok(info) => info,
        Err(e) => {
            if rsa::PrivateKey::from_pkcs1_der(der).is_ok() {
                return Err(KeyError::Other(
                    "x509: failed to parse private key (use ParsePKCS1PrivateKey instead for this key format)"
                        .into(),
                ));
            }
            return Err(match e {
                rsa::pkcs8::Error::Asn1(a) => match asn1_syntax(&a) {
                    Some(msg) => KeyError::Asn1Syntax(msg.into()),
                    None => KeyError::Asn1Syntax(a.to_string()),
                },
                other => KeyError::Other(other.to_string()),
            });
        }
    };
    let oid = info.algorithm.oid.to_string();
    match oid.as_str() {
        RSA => parse_pkcs1(info.private_key.as_bytes()).map_err(|e| {
            let inner = match e {
                KeyError::Asn1Syntax(msg) => format!("asn1: syntax error: {msg}"),
                KeyError::Other(msg) => msg,
                KeyError::NotRsa(t) => t.to_string(),
            };
            KeyError::Other(format!(
                "x509: failed to parse RSA private key embedded in PKCS#8: {inner}"
            ))
        }),
        EC => Err(KeyError::NotRsa("*ecdsa.PrivateKey")),
        ED25519 => Err(KeyError::NotRsa("ed25519.PrivateKey")),
        X25519 => Err(KeyError::NotRsa("*ecdh.PrivateKey")),
        _ => Err(KeyError::Other(format!(
            "x509: PKCS#8 wrapping contained private key with unknown algorithm: {oid}"
        ))),
    }
}

/// Go 1.20's `rsa.DecryptPKCS1v15`: raw RSA decryption, then the EME-PKCS1-v1_5 check
/// (`00 02`, at least eight non-zero padding bytes, a `00` separator) done without
/// data-dependent branches. Every failure is `crypto/rsa: decryption error`.
pub(crate) fn decrypt_pkcs1v15(
    key: &rsa::PrivateKey,
    ciphertext: &[u8],
) -> Result<Vec<u8>, &'static str> {
    use rsa::traits::PublicKeyParts;
    let k = key.size();
    if k < 11 || ciphertext.len() > k {
        return Err(DECRYPTION_ERROR);
    }
    let c = rsa::BoxedUint::from_be_slice(ciphertext, key.n_bits_precision())
        .map_err(|_| DECRYPTION_ERROR)?;
    let m = rsa::hazmat::rsa_decrypt(
        None::<&mut dyn rsa::rand_core::TryCryptoRng<Error = core::convert::Infallible>>,
        key,
        &c,
    )
    .map_err(|_| DECRYPTION_ERROR)?;
    let full = m.to_be_bytes();
    let em = full
        .get(full.len().saturating_sub(k)..)
        .ok_or(DECRYPTION_ERROR)?;
    if em.len() != k {
        return Err(DECRYPTION_ERROR);
    }
    // Constant-time selections, as Go's crypto/subtle: masks are all ones or all zeros.
    let eq0 = |b: u8| -> usize { ((usize::from(b) ^ 0xff).wrapping_add(1) >> 8) & 1 };
    let first_is_zero = eq0(em.first().copied().unwrap_or(1));
    let second_is_two = eq0(em.get(1).copied().unwrap_or(0) ^ 2);
    let mut looking = 1usize;
    let mut index = 0usize;
    for (i, &b) in em.iter().enumerate().skip(2) {
        let is_zero = eq0(b);
        let take = (looking & is_zero).wrapping_neg();
        index = (i & take) | (index & !take);
        looking &= !is_zero & 1;
    }
    let valid_ps = usize::from(index >= 10);
    let valid = first_is_zero & second_is_two & (!looking & 1) & valid_ps;
    if valid == 0 {
        return Err(DECRYPTION_ERROR);
    }
    Ok(em.get(index + 1..).unwrap_or_default().to_vec())
}
