//! Three-valued logic: true, false, unknown.

/// A verdict that may be unknown. Ordered `False < Unknown < True`, so `and` is `min` and
/// `or` is `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Truth {
    False,
    Unknown,
    True,
}

impl Truth {
    pub(crate) fn and(self, other: Truth) -> Truth {
        self.min(other)
    }

    pub(crate) fn or(self, other: Truth) -> Truth {
        self.max(other)
    }

    pub(crate) fn not(self) -> Truth {
        match self {
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
            Truth::True => Truth::False,
        }
    }
}

impl From<bool> for Truth {
    fn from(b: bool) -> Truth {
        if b {
            Truth::True
        } else {
            Truth::False
        }
    }
}
