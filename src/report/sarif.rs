//! STUB
use crate::outcome::RunOutcome;
pub fn render(_outcome: &RunOutcome) -> String {
    String::new()
}
