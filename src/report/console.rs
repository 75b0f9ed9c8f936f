//! STUB
use super::RenderOptions;
use crate::outcome::RunOutcome;
pub fn render(_outcome: &RunOutcome, _options: &RenderOptions) -> String {
    String::new()
}
