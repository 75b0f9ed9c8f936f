//! User functions (`function` blocks) and `invoke`.
