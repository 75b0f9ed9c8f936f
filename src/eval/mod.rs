//! AST + inventory to outcomes. The evaluator does no I/O.
