//! `locals` blocks: order-free, scoped, no shadowing, cycles are errors.
