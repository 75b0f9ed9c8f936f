//! Computed identities: the id (or ARN, or any computed attribute another resource refers
//! to) of a managed resource instance is unknown before apply, but it is known *whose* it
//! is. Terraform tracks that through its graph; here the value itself carries it: a string
//! that no configuration can write (it starts with a control character), naming the
//! instance and the attribute. It flows through variables, locals, module outputs,
//! `each.value` and collections like any string.
//!
//! Consumers: a mapping's association turns an identity into `{"$ref": ...}` to that
//! instance; anywhere else an identity is unknown (not null), and a string that merely
//! contains one (an interpolation) is unknown; `count`/`for_each` keys that contain one are
//! unknown. [`is_identity`] and [`parse`] are the only ways to read one.

/// The marker every identity starts with.
const MARK: char = '\u{1}';
/// The marker every identity ends with, so that an interpolation that goes on after one
/// (`"${aws_s3_bucket.b.arn}/*"`) is never read as an identity of another address.
const END: char = '\u{2}';

/// The identity of attribute `attr` of instance `address` (`aws_subnet.main`, `id`).
pub fn identity(address: &str, attr: &str) -> String {
    format!("{MARK}tf:{attr}:{address}{END}")
}

/// The (address, attribute) of an identity; `None` for any other string.
pub fn parse(s: &str) -> Option<(&str, &str)> {
    let rest = s
        .strip_prefix(MARK)?
        .strip_prefix("tf:")?
        .strip_suffix(END)?;
    if rest.contains(MARK) || rest.contains(END) {
        return None;
    }
    let (attr, address) = rest.split_once(':')?;
    Some((address, attr))
}

/// True when `s` is exactly an identity.
pub fn is_identity(s: &str) -> bool {
    parse(s).is_some()
}

/// True when `s` holds an identity anywhere (an interpolation of one).
pub fn contains_identity(s: &str) -> bool {
    s.contains(MARK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_round_trip_and_nothing_else_parses() {
        let id = identity("module.net.aws_subnet.a[\"x\"]", "id");
        assert_eq!(parse(&id), Some(("module.net.aws_subnet.a[\"x\"]", "id")));
        assert!(is_identity(&id));
        assert!(contains_identity(&format!("prefix-{id}")));
        assert!(!is_identity(&format!("prefix-{id}")));
        assert_eq!(parse("subnet-0abc"), None);
        let arn = identity("aws_s3_bucket.b", "arn");
        assert_eq!(parse(&format!("{arn}/*")), None);
        assert_eq!(parse(&format!("{arn}{arn}")), None);
    }
}
