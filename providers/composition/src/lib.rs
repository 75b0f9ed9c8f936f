//! cloudspec-composition: crossplane function-hcl compositions, rendered offline.
//!
//! The contract is `design/function-hcl.md` (the language is seed 004, upstream's
//! `function/spec.md`). The parts:
//!
//! - [`input`] reads what a user points at: a composition (a directory of `.hcl` files, a
//!   txtar file, a Crossplane `Composition` YAML or one HCL file) and the request's
//!   documents (`--xr`, `--observed`, `--extra-resources`, `--context`).
//! - `analyze` runs the static passes (contract section 3, "Static checks") over the parsed
//!   files; [`check`] is `render --check`.
//! - `eval` runs the function once over a request (blocks, scopes, locals, user functions,
//!   incomplete values, merging) and gives the response state; `response` turns that state
//!   into the `RunFunctionResponse` document (section 4).
//! - [`render`] is crossplane's requirement loop around `eval` (section 3, "Requirement
//!   loop") and gives the document of the last call with the desired resources as data.
//! - [`provider`] is the `--composition` source of `cloudspec run` (section 6).
//!
//! Nothing here does I/O except [`input`] and [`provider`]; nothing prints.
#![forbid(unsafe_code)]

mod analyze;
mod eval;
mod functions;
pub mod input;
mod locals;
pub mod provider;
mod request;
mod response;

use std::fmt;

pub use cloudspec_hcl::Diagnostic;
pub use input::{Composition, File, Inputs};

/// What a successful render gives (exit 0).
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The `RunFunctionResponse` document of the last call (protojson field names, no
    /// `meta`, object keys sorted): what `cloudspec render` prints.
    pub document: serde_json::Value,
    /// The desired resources, by crossplane name.
    pub resources: Vec<Desired>,
    /// The resources dropped as incomplete (a false condition is not a drop).
    pub dropped: Vec<Dropped>,
}

/// One desired resource.
#[derive(Clone, Debug)]
pub struct Desired {
    /// The crossplane name (`my-bucket`, `buckets-0`).
    pub name: String,
    /// The body as rendered (annotations of collection members included).
    pub body: serde_json::Value,
    /// Where the `resource` block (or the collection's `template` block) starts.
    pub file: String,
    pub line: usize,
}

/// A resource dropped because its body is incomplete.
#[derive(Clone, Debug)]
pub struct Dropped {
    /// The crossplane name.
    pub name: String,
    /// `apiVersion` and `kind` when both evaluate, even though the body does not.
    pub api_version: Option<String>,
    pub kind: Option<String>,
    /// The warning's message (`main.hcl:21,10-34,4:discarded resource my-bucket\n...`).
    pub message: String,
    pub file: String,
    pub line: usize,
}

/// A render that failed (exit 2): every diagnostic of the static passes, or the first
/// evaluation error, or a message without a position.
#[derive(Clone, Debug)]
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
}

impl Failure {
    /// A failure with a message and no position (`error: MESSAGE`).
    pub fn message(message: impl Into<String>) -> Failure {
        Failure {
            diagnostics: vec![Diagnostic::error(message, "", None)],
        }
    }
}

/// One line per diagnostic: `FILE:LINE:COL: error: SUMMARY[; DETAIL]`, or
/// `error: SUMMARY[; DETAIL]` without a position (contract section 5).
impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// The static passes only (`cloudspec render --check`): parsing, schemas, function
/// definitions, undefined variables, `invoke` calls and requirement selectors. Empty when
/// the composition is sound.
pub fn check(composition: &Composition) -> Vec<Diagnostic> {
    on_big_stack(|| match analyze::compile(composition) {
        Ok(_) => Vec::new(),
        Err(f) => f.diagnostics,
    })
}

/// The stack evaluation runs on: `invoke` recurses through the evaluator up to 99 calls
/// deep, each call several evaluator frames per nesting level of the function's body.
const STACK: usize = 256 << 20;

/// Runs `f` on a thread with a [`STACK`]-byte stack (reserved, not committed).
fn on_big_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(s, f)
        {
            Ok(handle) => match handle.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            // No thread to be had: run here (deep recursion may then run out of stack).
            Err(_) => unreachable_spawn(),
        }
    })
}

#[cold]
fn unreachable_spawn() -> ! {
    panic!("cannot start the evaluation thread")
}

/// The most calls crossplane makes while the requirements change (then it gives up).
pub const MAX_CALLS: usize = 6;

/// Renders `composition` over `inputs` as crossplane's `render` would, with the requirement
/// loop: the first call has no extra resources; while the requirement set changes, each
/// requirement is answered from `inputs.extra` and the response's context becomes the next
/// request's context.
pub fn render(composition: &Composition, inputs: &Inputs) -> Result<Rendered, Failure> {
    on_big_stack(|| render_here(composition, inputs))
}

fn render_here(composition: &Composition, inputs: &Inputs) -> Result<Rendered, Failure> {
    let program = analyze::compile(composition)?;
    let mut req = request::Request::new(inputs)?;
    let mut previous: Option<response::Requirements> = None;
    for _ in 0..MAX_CALLS {
        let state = eval::run(&program, &req)?;
        let requirements = state.requirements.clone();
        let stable = previous.as_ref() == Some(&requirements)
            || (previous.is_none() && requirements.is_empty());
        if stable {
            return Ok(response::finish(state));
        }
        req.answer(&requirements, inputs);
        req.context = state.context_out();
        previous = Some(requirements);
    }
    Err(Failure::message(
        "requirements didn't stabilize after the maximum number of iterations (5)",
    ))
}
