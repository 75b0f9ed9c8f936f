//! The root module's input variables (`design/terraform.md` section 7): declared type and
//! `optional()` defaults, then in increasing precedence: default, `TF_VAR_name`,
//! `terraform.tfvars`, `terraform.tfvars.json`, `*.auto.tfvars[.json]` in lexical order,
//! `--var`/`--var-file` in command order.
//!
//! As Terraform does (`backend/unparsed_value.go`, `terraform/eval_variable.go`): a value
//! given as text (`TF_VAR_name`, `--var`) is the string itself for a variable of a
//! primitive type or without a type, and is parsed as an HCL expression otherwise; an
//! undeclared name in a file warns, on the command line it is an error, in the environment
//! it is ignored. A variable with no value at all is unknown (with a warning): cloudspec
//! judges the configuration for every value it could have.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cloudspec_hcl::body::parse_file;
use cloudspec_hcl::convert::{convert_with_optional, Defaults};
use cloudspec_hcl::diag::{has_errors, range_string, Severity};
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::syntax::{parse_expr, SourceFile};
use cloudspec_hcl::{Diagnostic, Range, Type, Value};

use crate::module::{Module, Variable};
use crate::Failure;

/// One `--var NAME=VALUE` or `--var-file FILE`, in command order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarArg {
    Value { name: String, value: String },
    File(PathBuf),
}

/// A variable's declared type: the constraint, its `optional()` defaults, and how a value
/// given as text is read.
#[derive(Clone, Debug)]
pub struct VarType {
    /// `any` (dynamic) when no type is declared.
    pub ty: Type,
    pub defaults: Option<Defaults>,
    /// Paths of the `optional()` attributes (absent ones become null).
    pub optional: Vec<Vec<String>>,
    /// True when text is taken as a string as it is (primitive types and no type).
    pub literal: bool,
}

/// The declared type of `v` (an "Invalid type specification" diagnostic when the type
/// expression is not one).
pub fn var_type(v: &Variable) -> (VarType, Vec<Diagnostic>) {
    let mut out = VarType {
        ty: Type::Dynamic,
        defaults: None,
        optional: Vec::new(),
        literal: true,
    };
    let Some(expr) = &v.type_expr else {
        return (out, Vec::new());
    };
    let invalid = |detail: String| {
        vec![Diagnostic::error(
            "Invalid type specification",
            detail,
            Some(expr.range()),
        )]
    };
    let Some((native, src)) = expr.as_native() else {
        return (
            out,
            invalid("A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).".into()),
        );
    };
    let constraint = match Type::from_expr_with_defaults(&native) {
        Ok(c) => c,
        Err(detail) => return (out, invalid(detail)),
    };
    let mut diags = Vec::new();
    let mut defaults = Vec::new();
    for (path, dexpr) in &constraint.defaults {
        let (value, d) = cloudspec_hcl::eval::expr(dexpr, &EvalContext::empty(), &src);
        diags.extend(d);
        defaults.push((path.clone(), value));
    }
    out.literal = constraint.ty.is_primitive();
    out.defaults = Defaults::new(&constraint.ty, &defaults);
    out.optional = constraint.optional;
    out.ty = constraint.ty;
    (out, diags)
}

/// Where a value came from, for messages.
#[derive(Clone, Debug)]
pub enum Source {
    /// A file or an expression in one: the value's range.
    File(Range),
    /// `TF_VAR_name`.
    Env,
    /// `--var name=...`.
    Cli,
}

/// A value given for a variable, before conversion.
#[derive(Clone, Debug)]
pub struct Given {
    pub value: Value,
    pub source: Source,
}

/// Converts `given` to the variable's type as Terraform's
/// `prepareFinalInputVariableValue` does: type defaults applied (not to null), conversion,
/// then a null for a non-nullable variable takes the default. `default` is the converted
/// default. `addr` names the variable in messages (`var.x`, `module.net.var.x`). The error
/// is the diagnostic to report.
// Diagnostics are plain data returned by value, as in cloudspec-hcl.
#[allow(clippy::result_large_err)]
pub fn finalize(
    addr: &str,
    v: &Variable,
    vt: &VarType,
    given: &Given,
    default: Option<&Value>,
) -> Result<Value, Diagnostic> {
    let non_file = match &given.source {
        Source::Env => Some(format!(
            "set using the TF_VAR_{} environment variable",
            v.name
        )),
        Source::Cli => Some(format!("set using --var=\"{}=...\"", v.name)),
        Source::File(_) => None,
    };
    let subject = match &given.source {
        Source::File(r) => r.clone(),
        _ => v.block.def_range.clone(),
    };
    let mut value = given.value.clone();
    if let (Some(d), false) = (&vt.defaults, value.is_null()) {
        value = d.apply(&value);
    }
    let value = match convert_with_optional(&value, &vt.ty, &vt.optional) {
        Ok(v) => v,
        Err(e) => {
            let detail = match &non_file {
                Some(how) => format!("Unsuitable value for {addr} {how}: {}.", e.message),
                None => format!(
                    "The given value is not suitable for {addr} declared at {}: {}.",
                    range_string(&v.block.def_range),
                    e.message
                ),
            };
            return Err(Diagnostic::error(
                "Invalid value for input variable",
                detail,
                Some(subject),
            ));
        }
    };
    if value.is_null() && !v.nullable {
        if let Some(d) = default {
            return Ok(d.clone());
        }
        let detail = match &non_file {
            Some(how) => format!(
                "Unsuitable value for {addr} {how}: required variable may not be set to null."
            ),
            None => format!(
                "The given value is not suitable for {addr} defined at {}: required variable \
                 may not be set to null.",
                range_string(&v.block.def_range)
            ),
        };
        return Err(Diagnostic::error(
            "Required variable not set",
            detail,
            Some(subject),
        ));
    }
    Ok(value)
}

/// The default of `v`, converted to its type (`None` without a default).
pub fn default_value(v: &Variable, vt: &VarType) -> (Option<Value>, Vec<Diagnostic>) {
    let Some(expr) = &v.default else {
        return (None, Vec::new());
    };
    let (mut value, mut diags) = expr.value(&EvalContext::empty());
    if has_errors(&diags) {
        return (Some(Value::Unknown(vt.ty.clone())), diags);
    }
    if let (Some(d), false) = (&vt.defaults, value.is_null()) {
        value = d.apply(&value);
    }
    let value = match convert_with_optional(&value, &vt.ty, &vt.optional) {
        Ok(v) => v,
        Err(e) => {
            diags.push(Diagnostic::error(
                "Invalid default value for variable",
                format!(
                    "This default value is not compatible with the variable's type constraint: {}.",
                    e.message
                ),
                Some(expr.range()),
            ));
            Value::Unknown(vt.ty.clone())
        }
    };
    if !v.nullable && value.is_null() {
        diags.push(Diagnostic::error(
            "Invalid default value for variable",
            "A null default value is not valid when nullable=false.",
            Some(expr.range()),
        ));
    }
    (Some(value), diags)
}

/// Reads text given for a variable (`TF_VAR_name`, `--var`): the string itself in literal
/// mode, else an HCL expression evaluated without variables or functions.
fn parse_text(name: &str, text: &str, literal: bool) -> (Value, Vec<Diagnostic>) {
    if literal {
        return (Value::string(text), Vec::new());
    }
    let src = SourceFile::new(format!("<value for var.{name}>"), text);
    match parse_expr(&src) {
        Ok(e) => cloudspec_hcl::eval::expr(&e, &EvalContext::empty(), &src),
        Err(d) => (Value::dynamic(), vec![d]),
    }
}

/// The values of the root module's variables, and the warnings of finding them.
#[derive(Clone, Debug, Default)]
pub struct Values {
    pub values: BTreeMap<String, Value>,
    pub warnings: Vec<Diagnostic>,
}

/// A warning diagnostic.
pub fn warning(
    summary: impl Into<String>,
    detail: impl Into<String>,
    at: Option<Range>,
) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        ..Diagnostic::error(summary, detail, at)
    }
}

/// The values of `module`'s variables (the root module in `root`), from its defaults, the
/// environment's `TF_VAR_*` (`env`, by name), the `*.tfvars` files of `root` and `args`.
/// Every error together.
pub fn root_values(
    module: &Module,
    root: &Path,
    args: &[VarArg],
    env: &BTreeMap<String, String>,
) -> Result<Values, Failure> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let mut types: BTreeMap<&str, VarType> = BTreeMap::new();
    let mut defaults: BTreeMap<&str, Option<Value>> = BTreeMap::new();
    for v in &module.variables {
        let (vt, d) = var_type(v);
        errors.extend(d);
        let (default, d) = default_value(v, &vt);
        errors.extend(d);
        defaults.insert(&v.name, default);
        types.insert(&v.name, vt);
    }
    let mut given: BTreeMap<String, Given> = BTreeMap::new();
    // TF_VAR_name: undeclared names are ignored (set globally for many configurations).
    for v in &module.variables {
        if let (Some(text), Some(vt)) = (env.get(&v.name), types.get(v.name.as_str())) {
            let (value, d) = parse_text(&v.name, text, vt.literal);
            errors.extend(d);
            given.insert(
                v.name.clone(),
                Given {
                    value,
                    source: Source::Env,
                },
            );
        }
    }
    // terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars[.json] by name.
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for name in ["terraform.tfvars", "terraform.tfvars.json"] {
        let path = root.join(name);
        if path.is_file() {
            files.push((path, name.to_string()));
        }
    }
    let mut auto: Vec<(PathBuf, String)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root) {
        for entry in entries.flatten() {
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if (name.ends_with(".auto.tfvars") || name.ends_with(".auto.tfvars.json"))
                && entry.path().is_file()
            {
                auto.push((entry.path(), name));
            }
        }
    }
    auto.sort_by(|a, b| a.1.cmp(&b.1));
    files.extend(auto);
    let canonical_root = std::fs::canonicalize(root).ok();
    for (path, name) in &files {
        if let (Some(croot), Ok(target)) = (&canonical_root, std::fs::canonicalize(path)) {
            if !target.starts_with(croot) {
                return Err(Failure::message(format!(
                    "{}: symbolic link to a file outside the Terraform directory; cloudspec \
                     does not follow links out of the directory it was given",
                    cloudspec_model::input::escape_control(name)
                )));
            }
        }
        read_var_file(path, name, &types, &mut given, &mut errors, &mut warnings)?;
    }
    for arg in args {
        match arg {
            VarArg::Value { name, value } => {
                let Some(vt) = types.get(name.as_str()) else {
                    errors.push(Diagnostic::error(
                        "Value for undeclared variable",
                        format!(
                            "A variable named \"{name}\" was assigned on the command line, but \
                             the root module does not declare a variable of that name. To use \
                             this value, add a \"variable\" block to the configuration."
                        ),
                        None,
                    ));
                    continue;
                };
                let (value, d) = parse_text(name, value, vt.literal);
                errors.extend(d);
                given.insert(
                    name.clone(),
                    Given {
                        value,
                        source: Source::Cli,
                    },
                );
            }
            VarArg::File(path) => {
                let shown = cloudspec_model::input::display_path(path);
                read_var_file(path, &shown, &types, &mut given, &mut errors, &mut warnings)?;
            }
        }
    }
    let mut values = BTreeMap::new();
    for v in &module.variables {
        let (Some(vt), Some(default)) = (types.get(v.name.as_str()), defaults.get(v.name.as_str()))
        else {
            continue;
        };
        let value = match (given.get(&v.name), default) {
            (Some(g), _) => {
                match finalize(&format!("var.{}", v.name), v, vt, g, default.as_ref()) {
                    Ok(value) => value,
                    Err(d) => {
                        errors.push(d);
                        Value::Unknown(vt.ty.clone())
                    }
                }
            }
            (None, Some(d)) => d.clone(),
            (None, None) => {
                warnings.push(unset_warning(v));
                Value::Unknown(vt.ty.clone())
            }
        };
        values.insert(v.name.clone(), value);
    }
    if has_errors(&errors) {
        errors.retain(|d| d.severity == Severity::Error);
        return Err(Failure {
            diagnostics: errors,
        });
    }
    Ok(Values { values, warnings })
}

/// The warning for a root variable that has no value at all.
pub fn unset_warning(v: &Variable) -> Diagnostic {
    warning(
        "No value for required variable",
        format!(
            "The root module input variable \"{0}\" is not set, and has no default value: its \
             uses are unknown. Set it with --var {0}=VALUE, --var-file, a .tfvars file or \
             TF_VAR_{0}.",
            v.name
        ),
        Some(v.block.def_range.clone()),
    )
}

#[allow(clippy::too_many_arguments)]
fn read_var_file(
    path: &Path,
    shown: &str,
    types: &BTreeMap<&str, VarType>,
    given: &mut BTreeMap<String, Given>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Failure> {
    let text = crate::module::read_text(path, shown, "a variable definitions file")?;
    let name = if shown.ends_with(".json") || path.extension().is_some_and(|e| e == "json") {
        // parse_file chooses the syntax by the name's suffix.
        if shown.ends_with(".json") {
            shown.to_string()
        } else {
            format!("{shown}.json")
        }
    } else {
        shown.to_string()
    };
    let (body, d) = parse_file(&name, &text);
    let d: Vec<Diagnostic> = d
        .into_iter()
        .map(|mut d| {
            if let Some(r) = d.subject.as_mut() {
                r.filename = shown.to_string();
            }
            d
        })
        .collect();
    errors.extend(d);
    let Some(body) = body else { return Ok(()) };
    let (attrs, d) = body.just_attributes();
    errors.extend(d);
    let mut attrs: Vec<_> = attrs.into_values().collect();
    attrs.sort_by_key(|a| a.range.start.byte);
    for attr in attrs {
        if !types.contains_key(attr.name.as_str()) {
            warnings.push(warning(
                "Value for undeclared variable",
                format!(
                    "The root module does not declare a variable named \"{}\" but a value was \
                     found in file \"{shown}\". If you meant to use this value, add a \
                     \"variable\" block to the configuration.",
                    attr.name
                ),
                Some(attr.name_range.clone()),
            ));
            continue;
        }
        let (value, d) = attr.expr.value(&EvalContext::empty());
        errors.extend(d);
        given.insert(
            attr.name.clone(),
            Given {
                value,
                source: Source::File(attr.expr.range()),
            },
        );
    }
    Ok(())
}
