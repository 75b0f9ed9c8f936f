//! `terraform show -json` output as the `--terraform` PATH (`design/terraform.md` section
//! 9). Recognised here: a JSON object whose `format_version` has major version 1 and that
//! has `planned_values`. Reading one is not implemented yet: [`read`] says so, and
//! `--terraform` takes the root module's directory meanwhile.

use std::path::Path;

use cloudspec_model::input::{self, display_path};
use serde_json::Value as Json;

use crate::{Evaluated, Failure};

/// The most a plan file may hold: plans of large configurations run to hundreds of MB.
pub const MAX_PLAN_BYTES: u64 = 4 << 30;

/// Whether a JSON document is `terraform show -json` output of a format this reader knows:
/// `format_version` `1.x` and `planned_values`.
pub fn is_plan(doc: &Json) -> bool {
    let major = doc
        .get("format_version")
        .and_then(Json::as_str)
        .map(|v| v.split('.').next().unwrap_or_default());
    major == Some("1") && doc.get("planned_values").is_some_and(Json::is_object)
}

/// Reads the plan in the file at `path`: not implemented yet, so every plan is a
/// [`Failure`] saying so; any other file is a failure saying what `--terraform` takes.
/// Messages do not name the file (the provider's do).
pub fn read(path: &Path) -> Result<Evaluated, Failure> {
    let shown = display_path(path);
    let text =
        input::read_text(path, MAX_PLAN_BYTES, "terraform show -json output").map_err(|e| {
            let text = e.to_string();
            let own = text
                .strip_prefix(shown.as_str())
                .and_then(|rest| rest.strip_prefix(": "))
                .unwrap_or(&text);
            Failure::message(own)
        })?;
    let not_a_plan = |why: String| {
        Failure::message(format!(
            "{why}; --terraform takes a root module's directory or the output of \
             `terraform show -json PLANFILE`"
        ))
    };
    let doc: Json = serde_json::from_str(&text).map_err(|e| {
        not_a_plan(format!(
            "not JSON at line {}, column {} ({})",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        ))
    })?;
    if !is_plan(&doc) {
        return Err(not_a_plan(
            "not `terraform show -json` output (a JSON object with \"format_version\" 1.x and \
             \"planned_values\")"
                .into(),
        ));
    }
    Err(Failure::message(
        "reading `terraform show -json` output is not supported yet; pass the root module's \
         directory instead",
    ))
}

/// serde_json's message without its ` at line L column C` (given before it).
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .and_then(|at| message.get(..at))
        .unwrap_or(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_plan_is_format_one_with_planned_values() {
        assert!(is_plan(
            &json!({"format_version": "1.2", "planned_values": {"root_module": {}}})
        ));
        assert!(is_plan(
            &json!({"format_version": "1", "planned_values": {}})
        ));
        assert!(!is_plan(
            &json!({"format_version": "2.0", "planned_values": {}})
        ));
        assert!(!is_plan(&json!({"format_version": "1.0", "values": {}})));
        assert!(!is_plan(
            &json!({"format_version": 1, "planned_values": {}})
        ));
        assert!(!is_plan(&json!([1, 2])));
    }

    #[test]
    fn plans_are_not_read_yet_and_other_files_are_not_plans() {
        let dir = tempfile::tempdir().unwrap();
        let plan = dir.path().join("plan.json");
        std::fs::write(&plan, r#"{"format_version": "1.2", "planned_values": {}}"#).unwrap();
        assert_eq!(
            read(&plan).unwrap_err().diagnostics[0].summary,
            "reading `terraform show -json` output is not supported yet; pass the root \
             module's directory instead"
        );
        let state = dir.path().join("state.json");
        std::fs::write(&state, r#"{"format_version": "1.0", "values": {}}"#).unwrap();
        assert_eq!(
            read(&state).unwrap_err().diagnostics[0].summary,
            "not `terraform show -json` output (a JSON object with \"format_version\" 1.x \
             and \"planned_values\"); --terraform takes a root module's directory or the \
             output of `terraform show -json PLANFILE`"
        );
        let tf = dir.path().join("main.tf");
        std::fs::write(&tf, "resource \"aws_vpc\" \"a\" {}\n").unwrap();
        assert_eq!(
            read(&tf).unwrap_err().diagnostics[0].summary,
            "not JSON at line 1, column 1 (expected value); --terraform takes a root module's \
             directory or the output of `terraform show -json PLANFILE`"
        );
    }
}
