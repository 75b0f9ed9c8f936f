//! Text from data, made safe to show: control characters escaped
//! ([`cloudspec_model::input::escape_control`]), for the console report and text logs.

pub use cloudspec_model::input::escape_control;
