//! Arbitrary-precision decimal numbers (HCL's number type is not f64).

use bigdecimal::BigDecimal;

/// A number. Stored normalized so that equal numbers compare and hash equal.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Number(pub BigDecimal);
