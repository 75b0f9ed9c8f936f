//! The function table: every standard function registered in one place.
//!
//! A function declares its parameters (name, type, whether null or unknown arguments are
//! passed through), an optional variadic parameter and its implementation. `FunctionTable::call`
//! checks arity, converts arguments to the parameter types, and short-circuits: an unknown
//! argument to a parameter that does not `allow_unknown` makes the result unknown; a null
//! argument to a parameter that does not `allow_null` is an error. Implementations therefore
//! only see known, non-null, converted arguments unless they opt in.

pub mod collection;
pub mod conversion;
pub mod datetime;
pub mod encoding;
pub mod hash;
pub mod ipnet;
pub mod numeric;
pub mod string;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use crate::convert::convert;
use crate::types::Type;
use crate::value::Value;

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    pub allow_null: bool,
    pub allow_unknown: bool,
}

impl Param {
    pub fn new(name: impl Into<String>, ty: Type) -> Param {
        Param {
            name: name.into(),
            ty,
            allow_null: false,
            allow_unknown: false,
        }
    }
    pub fn allow_null(mut self) -> Param {
        self.allow_null = true;
        self
    }
    pub fn allow_unknown(mut self) -> Param {
        self.allow_unknown = true;
        self
    }
}

/// A function failure. `arg` is the 0-based index of the argument at fault, when one is
/// (the evaluator then points the diagnostic at that argument).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncError {
    pub arg: Option<usize>,
    pub message: String,
}

impl FuncError {
    pub fn new(message: impl Into<String>) -> FuncError {
        FuncError {
            arg: None,
            message: message.into(),
        }
    }
    pub fn arg(arg: usize, message: impl Into<String>) -> FuncError {
        FuncError {
            arg: Some(arg),
            message: message.into(),
        }
    }
}

/// A function body. An `Arc<dyn Fn>` so that functions defined at run time (hcldec's spec
/// `function` blocks) can capture their expression and scope.
pub type Impl = Arc<dyn Fn(&[Value]) -> Result<Value, FuncError> + Send + Sync>;

#[derive(Clone)]
pub struct Function {
    pub name: String,
    pub params: Vec<Param>,
    pub variadic: Option<Param>,
    /// The result type when known in advance; used for the unknown result of a call with
    /// unknown arguments (`Type::Dynamic` otherwise).
    pub returns: Type,
    pub imp: Impl,
}

impl Function {
    /// A function with a plain `fn` body (the standard library's case).
    pub fn new(
        name: &'static str,
        params: Vec<Param>,
        returns: Type,
        imp: fn(&[Value]) -> Result<Value, FuncError>,
    ) -> Function {
        Function {
            name: name.to_string(),
            params,
            variadic: None,
            returns,
            imp: Arc::new(imp),
        }
    }
    /// A function with a capturing body (user-defined functions).
    pub fn with_closure(
        name: impl Into<String>,
        params: Vec<Param>,
        returns: Type,
        imp: Impl,
    ) -> Function {
        Function {
            name: name.into(),
            params,
            variadic: None,
            returns,
            imp,
        }
    }
    pub fn variadic(mut self, p: Param) -> Function {
        self.variadic = Some(p);
        self
    }
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Function")
            .field("name", &self.name)
            .field("params", &self.params)
            .finish()
    }
}

#[derive(Clone, Debug, Default)]
pub struct FunctionTable {
    funcs: BTreeMap<String, Function>,
}

impl FunctionTable {
    pub fn empty() -> FunctionTable {
        FunctionTable::default()
    }
    pub fn add(&mut self, f: Function) {
        self.funcs.insert(f.name.clone(), f);
    }
    pub fn get(&self, name: &str) -> Option<&Function> {
        self.funcs.get(name)
    }
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.funcs.keys().map(String::as_str)
    }

    /// Calls `name` with `args` (after `...` expansion). Arity, conversion, null and unknown
    /// handling as described in the module docs.
    pub fn call(&self, name: &str, args: &[Value]) -> Result<Value, FuncError> {
        let f = self
            .get(name)
            .ok_or_else(|| FuncError::new(format!("there is no function named \"{name}\"")))?;
        call_function(f, args)
    }
}

pub fn call_function(f: &Function, args: &[Value]) -> Result<Value, FuncError> {
    let n = f.params.len();
    if args.len() < n || (f.variadic.is_none() && args.len() > n) {
        let what = if f.variadic.is_some() {
            "at least "
        } else {
            ""
        };
        let s = if n == 1 { "" } else { "s" };
        return Err(FuncError::new(format!(
            "function \"{}\" expects {what}{n} argument{s}, but {} were given",
            f.name,
            args.len()
        )));
    }
    let mut converted = Vec::with_capacity(args.len());
    let mut unknown = false;
    for (i, a) in args.iter().enumerate() {
        let p = f
            .params
            .get(i)
            .or(f.variadic.as_ref())
            .expect("arity checked");
        if a.is_null() && !p.allow_null {
            return Err(FuncError::arg(
                i,
                format!("argument \"{}\" must not be null", p.name),
            ));
        }
        if !a.is_wholly_known() && !p.allow_unknown {
            unknown = true;
        }
        let c = convert(a, &p.ty).map_err(|e| {
            FuncError::arg(
                i,
                format!("invalid value for \"{}\" parameter: {}", p.name, e.message),
            )
        })?;
        converted.push(c);
    }
    if unknown {
        return Ok(Value::Unknown(f.returns.clone()));
    }
    (f.imp)(&converted)
}

/// The families of the standard library; each registers its functions.
const FAMILIES: &[fn(&mut FunctionTable)] = &[
    string::register,
    numeric::register,
    collection::register,
    encoding::register,
    hash::register,
    ipnet::register,
    conversion::register,
    datetime::register,
];

/// The standard library (Terraform 1.5 / Nomad functions minus file-system and impure ones).
/// `try` and `can` are not here: they need unevaluated arguments and live in the evaluator.
pub fn stdlib() -> &'static FunctionTable {
    static TABLE: OnceLock<FunctionTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = FunctionTable::empty();
        for family in FAMILIES {
            family(&mut t);
        }
        t
    })
}
