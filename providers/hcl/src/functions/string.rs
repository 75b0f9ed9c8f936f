//! String functions: chomp, endswith, format, formatlist, indent, join, lower, regex,
//! regexall, replace, split, startswith, strcontains, strrev, substr, title, trim,
//! trimprefix, trimspace, trimsuffix, upper.
//!
//! They follow cty's stdlib and Terraform 1.5's `funcs` package: "characters" are Unicode
//! grapheme clusters where cty counts them (`strrev`, `substr`, `format` widths), case
//! mapping is Go's per-rune simple mapping (`gocompat::unicode`), `format` implements cty's
//! verbs (numbers are formatted as Go formats a 512-bit `big.Float` / a `big.Int`:
//! `gocompat::fmt`), and regular expressions use Go's RE2 syntax, Go's match iteration and
//! `$1`/`${name}` expansion (`gocompat::regexp`).

use std::collections::BTreeMap;

use regex::{Captures, Regex};
use unicode_segmentation::UnicodeSegmentation;

use super::numeric::go_int;
use super::{FuncError, Function, FunctionTable, Param};
use crate::convert::convert;
use crate::gocompat::fmt::{go_format_float, go_format_int, go_text_g, Verb};
use crate::gocompat::quote::{go_quote, go_quote_rune};
use crate::gocompat::regexp::{compile_go_regex, go_find_all, go_replace_all};
use crate::gocompat::unicode::{go_is_separator, go_to_lower, go_to_title, go_to_upper};
use crate::types::Type;
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    let s = |name: &str| Param::new(name, Type::String);
    t.add(Function::new("chomp", vec![s("str")], Type::String, chomp));
    t.add(Function::new(
        "endswith",
        vec![s("str"), s("suffix")],
        Type::Bool,
        endswith,
    ));
    t.add(
        Function::new(
            "format",
            vec![s("format").allow_unknown()],
            Type::String,
            format,
        )
        .variadic(
            Param::new("args", Type::Dynamic)
                .allow_null()
                .allow_unknown(),
        ),
    );
    t.add(
        Function::new(
            "formatlist",
            vec![s("format").allow_unknown()],
            Type::list(Type::String),
            formatlist,
        )
        .variadic(
            Param::new("args", Type::Dynamic)
                .allow_null()
                .allow_unknown(),
        ),
    );
    t.add(Function::new(
        "indent",
        vec![Param::new("spaces", Type::Number), s("str")],
        Type::String,
        indent,
    ));
    t.add(
        Function::new("join", vec![s("separator")], Type::String, join)
            .variadic(Param::new("lists", Type::list(Type::String))),
    );
    t.add(Function::new("lower", vec![s("str")], Type::String, lower));
    t.add(Function::new(
        "regex",
        vec![s("pattern").allow_unknown(), s("string").allow_unknown()],
        Type::Dynamic,
        regex_fn,
    ));
    t.add(Function::new(
        "regexall",
        vec![s("pattern").allow_unknown(), s("string").allow_unknown()],
        Type::list(Type::Dynamic),
        regexall,
    ));
    t.add(Function::new(
        "replace",
        vec![s("str"), s("substr"), s("replace")],
        Type::String,
        replace,
    ));
    t.add(Function::new(
        "split",
        vec![s("separator"), s("str")],
        Type::list(Type::String),
        split,
    ));
    t.add(Function::new(
        "startswith",
        vec![s("str"), s("prefix")],
        Type::Bool,
        startswith,
    ));
    t.add(Function::new(
        "strcontains",
        vec![s("str"), s("substr")],
        Type::Bool,
        strcontains,
    ));
    t.add(Function::new(
        "strrev",
        vec![s("str")],
        Type::String,
        strrev,
    ));
    t.add(Function::new(
        "substr",
        vec![
            s("str"),
            Param::new("offset", Type::Number),
            Param::new("length", Type::Number),
        ],
        Type::String,
        substr,
    ));
    t.add(Function::new("title", vec![s("str")], Type::String, title));
    t.add(Function::new(
        "trim",
        vec![s("str"), s("cutset")],
        Type::String,
        trim,
    ));
    t.add(Function::new(
        "trimprefix",
        vec![s("str"), s("prefix")],
        Type::String,
        trimprefix,
    ));
    t.add(Function::new(
        "trimspace",
        vec![s("str")],
        Type::String,
        trimspace,
    ));
    t.add(Function::new(
        "trimsuffix",
        vec![s("str"), s("suffix")],
        Type::String,
        trimsuffix,
    ));
    t.add(Function::new("upper", vec![s("str")], Type::String, upper));
}

/// Upper bound on widths, precisions, indentation and similar sizes that would otherwise
/// let a small expression allocate unbounded memory (Go would try and fail).
const SIZE_LIMIT: usize = 10_000_000;

/// Upper bound, in bytes, on the strings `format`, `join` and `replace` build: a few nested
/// calls would otherwise grow a string exponentially (Go would try and run out of memory).
pub const MAX_STRING_LEN: usize = 64 << 20;
const TOO_LARGE: &str = "the result would be too large";

fn str_arg(args: &[Value], i: usize) -> Result<&str, FuncError> {
    args.get(i)
        .and_then(Value::as_str)
        .ok_or_else(|| FuncError::arg(i, "string required"))
}

fn string(s: impl Into<String>) -> Value {
    Value::string(s)
}

fn grapheme_count(s: &str) -> usize {
    s.graphemes(true).count()
}

// ---------------------------------------------------------------------------------------
// Simple string functions.

fn chomp(args: &[Value]) -> Result<Value, FuncError> {
    // cty: regexp `(?:\r\n?|\n)*\z` replaced by "" — any run of CR/LF at the end.
    Ok(string(str_arg(args, 0)?.trim_end_matches(['\r', '\n'])))
}

fn endswith(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::Bool(str_arg(args, 0)?.ends_with(str_arg(args, 1)?)))
}

fn startswith(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::Bool(
        str_arg(args, 0)?.starts_with(str_arg(args, 1)?),
    ))
}

fn strcontains(args: &[Value]) -> Result<Value, FuncError> {
    Ok(Value::Bool(str_arg(args, 0)?.contains(str_arg(args, 1)?)))
}

fn indent(args: &[Value]) -> Result<Value, FuncError> {
    let spaces =
        go_int(args.first().unwrap_or(&Value::Null(Type::Number))).map_err(FuncError::new)?;
    let s = str_arg(args, 1)?;
    if spaces < 0 {
        // strings.Repeat panics; cty reports the panic as an error.
        return Err(FuncError::new(
            "panic in function implementation: strings: negative Repeat count",
        ));
    }
    let newlines = s.matches('\n').count();
    let spaces = spaces as usize;
    if spaces.saturating_mul(newlines) > SIZE_LIMIT {
        return Err(FuncError::new("the result would be too large"));
    }
    let pad = format!("\n{}", " ".repeat(spaces));
    Ok(string(s.replace('\n', &pad)))
}

fn join(args: &[Value]) -> Result<Value, FuncError> {
    let sep = str_arg(args, 0)?;
    let lists = args.get(1..).unwrap_or(&[]);
    if lists.is_empty() {
        return Err(FuncError::new("at least one list is required"));
    }
    if lists.iter().any(|l| !l.is_wholly_known()) {
        return Ok(Value::Unknown(Type::String));
    }
    let mut items: Vec<&str> = Vec::new();
    for (ai, list) in lists.iter().enumerate() {
        let Value::List(_, elems) = list else {
            return Err(FuncError::arg(ai + 1, "list of string required"));
        };
        for (ei, v) in elems.iter().enumerate() {
            match v {
                Value::String(s) => items.push(s),
                _ if lists.len() > 1 => {
                    return Err(FuncError::arg(
                        ai + 1,
                        format!(
                            "element {ei} of list {} is null; cannot concatenate null values",
                            ai + 1
                        ),
                    ))
                }
                _ => {
                    return Err(FuncError::arg(
                        ai + 1,
                        format!("element {ei} is null; cannot concatenate null values"),
                    ))
                }
            }
        }
    }
    let total = items
        .iter()
        .fold(sep.len().saturating_mul(items.len()), |n, s| {
            n.saturating_add(s.len())
        });
    if total > MAX_STRING_LEN {
        return Err(FuncError::new(TOO_LARGE));
    }
    Ok(string(items.join(sep)))
}

fn split(args: &[Value]) -> Result<Value, FuncError> {
    let sep = str_arg(args, 0)?;
    let s = str_arg(args, 1)?;
    // Go's strings.Split: an empty separator splits after each UTF-8 sequence (and an
    // empty string then gives no elements at all).
    let count = if sep.is_empty() {
        s.chars().count()
    } else {
        s.matches(sep).count() + 1
    };
    crate::budget::charge(count as u64, s.len() as u64).map_err(FuncError::new)?;
    let parts: Vec<Value> = if sep.is_empty() {
        s.chars().map(|c| string(c.to_string())).collect()
    } else {
        s.split(sep).map(string).collect()
    };
    Ok(Value::list(Type::String, parts))
}

fn strrev(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    Ok(string(s.graphemes(true).rev().collect::<String>()))
}

fn substr(args: &[Value]) -> Result<Value, FuncError> {
    let input = str_arg(args, 0)?;
    let mut offset =
        go_int(args.get(1).unwrap_or(&Value::Null(Type::Number))).map_err(FuncError::new)?;
    let length =
        go_int(args.get(2).unwrap_or(&Value::Null(Type::Number))).map_err(FuncError::new)?;
    // A port of cty's SubstrFunc, quirks included (a negative offset that is still
    // negative after adding the length starts at the beginning; a zero length with a
    // negative offset does not short-circuit).
    if offset < 0 {
        offset = offset.saturating_add(grapheme_count(input) as i64);
    } else if length == 0 {
        return Ok(string(""));
    }
    let mut sub = input;
    if offset > 0 {
        let mut i = 0usize;
        let mut pos: i64 = 0;
        for g in input.graphemes(true) {
            i += g.len();
            pos += 1;
            if pos == offset {
                break;
            }
            if i >= input.len() {
                return Ok(string(""));
            }
        }
        sub = input.get(i..).unwrap_or("");
    }
    if length < 0 {
        return Ok(string(sub));
    }
    let mut i = 0usize;
    let mut pos: i64 = 0;
    for g in sub.graphemes(true) {
        i += g.len();
        pos += 1;
        if pos == length {
            break;
        }
    }
    Ok(string(sub.get(..i).unwrap_or(sub)))
}

fn trim(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let cutset = str_arg(args, 1)?;
    Ok(string(s.trim_matches(|c: char| cutset.contains(c))))
}

fn trimprefix(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let p = str_arg(args, 1)?;
    Ok(string(s.strip_prefix(p).unwrap_or(s)))
}

fn trimsuffix(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let p = str_arg(args, 1)?;
    Ok(string(s.strip_suffix(p).unwrap_or(s)))
}

fn trimspace(args: &[Value]) -> Result<Value, FuncError> {
    // Go's unicode.IsSpace is the White_Space property, as char::is_whitespace.
    Ok(string(str_arg(args, 0)?.trim()))
}

fn upper(args: &[Value]) -> Result<Value, FuncError> {
    Ok(string(
        str_arg(args, 0)?
            .chars()
            .map(go_to_upper)
            .collect::<String>(),
    ))
}

fn lower(args: &[Value]) -> Result<Value, FuncError> {
    Ok(string(
        str_arg(args, 0)?
            .chars()
            .map(go_to_lower)
            .collect::<String>(),
    ))
}

fn title(args: &[Value]) -> Result<Value, FuncError> {
    // Go's strings.Title: the first letter after a separator is mapped to title case.
    let s = str_arg(args, 0)?;
    let mut prev = ' ';
    let out: String = s
        .chars()
        .map(|c| {
            let r = if go_is_separator(prev) {
                go_to_title(c)
            } else {
                c
            };
            prev = c;
            r
        })
        .collect();
    Ok(string(out))
}

// ---------------------------------------------------------------------------------------
// format and formatlist.

fn format(args: &[Value]) -> Result<Value, FuncError> {
    let fmt = args.first().cloned().unwrap_or(Value::Null(Type::String));
    let vals = args.get(1..).unwrap_or(&[]);
    // cty: a dynamic-typed argument makes the expected type dynamic; unknown arguments
    // short-circuit to an unknown of the expected type; nested unknowns to an unknown
    // string (a collection can only be printed as JSON, which needs known values).
    let expected = if vals.iter().any(|v| v.ty() == Type::Dynamic) {
        Type::Dynamic
    } else {
        Type::String
    };
    if fmt.is_unknown() || vals.iter().any(Value::is_unknown) {
        return Ok(Value::Unknown(expected));
    }
    if vals.iter().any(|v| !v.is_wholly_known()) {
        return Ok(Value::Unknown(Type::String));
    }
    let Value::String(f) = &fmt else {
        return Err(FuncError::arg(0, "string required"));
    };
    format_fsm(f, vals).map(string)
}

fn formatlist(args: &[Value]) -> Result<Value, FuncError> {
    let fmt = args.first().cloned().unwrap_or(Value::Null(Type::String));
    let vals = args.get(1..).unwrap_or(&[]);
    let ret_ty = if vals.iter().any(|v| v.ty() == Type::Dynamic) {
        Type::Dynamic
    } else {
        Type::list(Type::String)
    };
    if fmt.is_unknown() {
        return Ok(Value::Unknown(ret_ty));
    }
    let Value::String(f) = &fmt else {
        return Err(FuncError::arg(0, "string required"));
    };
    if vals.is_empty() {
        let s = format_fsm(f, vals)?;
        return Ok(Value::list(Type::String, vec![string(s)]));
    }

    // Sequence arguments (lists, sets, tuples) are iterated together; everything else is
    // repeated for each iteration.
    let mut iter_len: Option<(usize, usize)> = None; // (length, index of the argument)
    let mut seqs: Vec<Option<Vec<Value>>> = Vec::with_capacity(vals.len());
    let mut unknown = false;
    for (i, arg) in vals.iter().enumerate() {
        let ty = arg.ty();
        let is_seq = matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_));
        if is_seq && !arg.is_null() {
            let length_known = match arg {
                Value::Unknown(_) => matches!(ty, Type::Tuple(_)),
                Value::Set(..) => arg.is_wholly_known(),
                _ => true,
            };
            if !length_known {
                unknown = true;
                seqs.push(None);
                continue;
            }
            let this_len = match (&ty, arg) {
                (Type::Tuple(etys), Value::Unknown(_)) => etys.len(),
                _ => arg.len().unwrap_or(0),
            };
            match iter_len {
                None => iter_len = Some((this_len, i)),
                Some((l, chooser)) if l != this_len => {
                    return Err(FuncError::arg(
                        i + 1,
                        format!(
                            "argument {} has length {this_len}, which is inconsistent with argument {} of length {l}",
                            i + 1,
                            chooser + 1
                        ),
                    ))
                }
                Some(_) => {}
            }
            if arg.is_unknown() {
                unknown = true;
                seqs.push(None);
                continue;
            }
            seqs.push(Some(
                arg.elements()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect(),
            ));
        } else {
            if matches!(arg, Value::Unknown(Type::Dynamic)) {
                unknown = true;
            }
            seqs.push(None);
        }
    }
    if unknown {
        return Ok(Value::Unknown(ret_ty));
    }
    let n = match iter_len {
        Some((0, _)) => return Ok(Value::list(Type::String, vec![])),
        Some((l, _)) => l,
        None => 1,
    };
    let mut out = Vec::with_capacity(n);
    'results: for idx in 0..n {
        let mut fmt_args = Vec::with_capacity(vals.len());
        for (i, arg) in vals.iter().enumerate() {
            let v = match seqs.get(i).and_then(Option::as_ref) {
                Some(elems) => elems
                    .get(idx)
                    .cloned()
                    .unwrap_or(Value::Null(Type::Dynamic)),
                None => arg.clone(),
            };
            if !v.is_wholly_known() {
                out.push(Value::Unknown(Type::String));
                continue 'results;
            }
            fmt_args.push(v);
        }
        match format_fsm(f, &fmt_args) {
            Ok(s) => {
                crate::budget::charge(1, s.len() as u64).map_err(FuncError::new)?;
                out.push(string(s))
            }
            Err(e) => {
                return Err(FuncError::new(format!(
                    "error on format iteration {idx}: {}",
                    e.message
                )))
            }
        }
    }
    Ok(Value::list(Type::String, out))
}

fn acc(n: usize, digit: u8) -> usize {
    n.saturating_mul(10)
        .saturating_add(usize::from(digit - b'0'))
}

/// cty's format scanner (a Ragel machine): `%` [flags] [width] [.precision] [`[n]`] verb,
/// `%%`, and literal text. Errors are cty's.
fn format_fsm(format: &str, args: &[Value]) -> Result<String, FuncError> {
    let b = format.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(format.len());
    let mut next_arg = 1usize;
    let mut highest = 0usize;
    let mut verb = Verb::default();
    let mut state = 0u8; // 0: text; 1: after %; 2: flags; 3: precision; 4: after [;
                         // 5: arg index digits; 6: after ]; 7: width digits
    let mut ts = 0usize;
    let err_char = |p: usize| {
        let c = format
            .get(p..)
            .and_then(|s| s.chars().next())
            .unwrap_or('\u{fffd}');
        FuncError::new(format!(
            "unrecognized format character {} at offset {p}",
            go_quote_rune(c)
        ))
    };
    for (p, &c) in b.iter().enumerate() {
        let mut emit_verb = false;
        match state {
            0 => {
                if c == b'%' {
                    verb = Verb {
                        arg_num: next_arg,
                        ..Verb::default()
                    };
                    ts = p;
                    state = 1;
                } else {
                    out.push(c);
                }
            }
            1 | 2 => match c {
                b'%' if state == 1 => {
                    out.push(b'%');
                    state = 0;
                }
                b' ' => {
                    verb.space = true;
                    state = 2;
                }
                b'#' => {
                    verb.sharp = true;
                    state = 2;
                }
                b'+' => {
                    verb.plus = true;
                    state = 2;
                }
                b'-' => {
                    verb.minus = true;
                    state = 2;
                }
                b'0' => {
                    verb.zero = true;
                    state = 2;
                }
                b'.' => {
                    verb.prec = 0;
                    state = 3;
                }
                b'[' => {
                    verb.arg_num = 0;
                    state = 4;
                }
                b'1'..=b'9' => {
                    verb.width = usize::from(c - b'0');
                    state = 7;
                }
                c if c.is_ascii_alphabetic() => emit_verb = true,
                _ => return Err(err_char(p)),
            },
            3 => match c {
                b'0'..=b'9' => verb.prec = acc(verb.prec, c),
                b'[' => {
                    verb.has_prec = true;
                    verb.arg_num = 0;
                    state = 4;
                }
                c if c.is_ascii_alphabetic() => {
                    verb.has_prec = true;
                    emit_verb = true;
                }
                _ => return Err(err_char(p)),
            },
            4 => match c {
                b'1'..=b'9' => {
                    verb.arg_num = usize::from(c - b'0');
                    state = 5;
                }
                _ => return Err(err_char(p)),
            },
            5 => match c {
                b'0'..=b'9' => verb.arg_num = acc(verb.arg_num, c),
                b']' => state = 6,
                _ => return Err(err_char(p)),
            },
            6 => match c {
                c if c.is_ascii_alphabetic() => emit_verb = true,
                _ => return Err(err_char(p)),
            },
            _ => match c {
                b'0'..=b'9' => verb.width = acc(verb.width, c),
                b'.' => {
                    verb.has_width = true;
                    verb.prec = 0;
                    state = 3;
                }
                b'[' => {
                    verb.has_width = true;
                    verb.arg_num = 0;
                    state = 4;
                }
                c if c.is_ascii_alphabetic() => {
                    verb.has_width = true;
                    emit_verb = true;
                }
                _ => return Err(err_char(p)),
            },
        }
        if emit_verb {
            verb.mode = char::from(c);
            verb.raw = format.get(ts..=p).unwrap_or("").to_string();
            verb.offset = ts;
            highest = highest.max(verb.arg_num);
            let piece = format_append(&verb, args)?;
            if out.len().saturating_add(piece.len()) > MAX_STRING_LEN {
                return Err(FuncError::new(TOO_LARGE));
            }
            out.extend_from_slice(piece.as_bytes());
            next_arg = verb.arg_num.saturating_add(1);
            state = 0;
        }
    }
    if state != 0 {
        return Err(FuncError::new(format!(
            "invalid format string starting at offset {}",
            b.len()
        )));
    }
    if highest < args.len() {
        let first_bad = highest + 1;
        if highest == 0 {
            return Err(FuncError::arg(
                first_bad,
                "too many arguments; no verbs in format string",
            ));
        }
        return Err(FuncError::arg(
            first_bad,
            format!("too many arguments; only {highest} used by format string"),
        ));
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn format_append(verb: &Verb, args: &[Value]) -> Result<String, FuncError> {
    let Some(arg) = verb.arg_num.checked_sub(1).and_then(|i| args.get(i)) else {
        return Err(FuncError::new(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            go_quote(&verb.raw),
            verb.offset,
            verb.arg_num,
            args.len()
        )));
    };
    let unsupported = |msg: &str| {
        FuncError::new(format!(
            "unsupported value for {} at {}: {msg}",
            go_quote(&verb.raw),
            verb.offset
        ))
    };
    if verb.mode != 'v' && arg.is_null() {
        return Err(unsupported("null value cannot be formatted"));
    }
    if verb.width > SIZE_LIMIT || verb.prec > SIZE_LIMIT {
        return Err(unsupported("width or precision too large"));
    }
    match verb.mode {
        'v' => {
            if !verb.sharp {
                match arg {
                    Value::String(s) => return Ok(pad_width(verb, s)),
                    Value::Number(n) => return Ok(pad_width(verb, &go_text_g(n))),
                    _ => {}
                }
            }
            let json = crate::json::encode(arg).map_err(|e| unsupported(&e))?;
            Ok(pad_width(verb, &json))
        }
        't' => {
            let b = convert(arg, &Type::Bool).map_err(|e| unsupported(&e.to_string()))?;
            Ok(if b.as_bool() == Some(true) {
                "true".into()
            } else {
                "false".into()
            })
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = convert(arg, &Type::Number).map_err(|e| unsupported(&e.to_string()))?;
            let Value::Number(n) = n else {
                return Err(unsupported("a number is required"));
            };
            if matches!(verb.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                let Some(i) = n.to_bigint() else {
                    return Err(unsupported("an integer is required"));
                };
                Ok(go_format_int(&i, verb))
            } else {
                go_format_float(&n, verb, SIZE_LIMIT).map_err(|e| unsupported(&e))
            }
        }
        's' | 'q' => {
            let s = convert(arg, &Type::String).map_err(|e| unsupported(&e.to_string()))?;
            let Value::String(s) = s else {
                return Err(unsupported("a string is required"));
            };
            let mut s: &str = &s;
            if verb.has_prec && verb.prec > 0 {
                let end: usize = s.graphemes(true).take(verb.prec).map(str::len).sum();
                s = s.get(..end).unwrap_or(s);
            }
            if verb.mode == 's' {
                Ok(pad_width(verb, s))
            } else {
                Ok(pad_width(verb, &crate::json::quote(s)))
            }
        }
        m => Err(FuncError::new(format!(
            "unsupported format verb {} in {} at offset {}",
            go_quote_rune(m),
            go_quote(&verb.raw),
            verb.offset
        ))),
    }
}

/// cty's `formatPadWidth`: width in grapheme clusters, `0` pads with zeros, `-` pads on
/// the right.
fn pad_width(verb: &Verb, s: &str) -> String {
    if !verb.has_width {
        return s.to_string();
    }
    let have = grapheme_count(s);
    if have >= verb.width {
        return s.to_string();
    }
    let pad = (if verb.zero { "0" } else { " " }).repeat(verb.width - have);
    if verb.minus {
        format!("{s}{pad}")
    } else {
        format!("{pad}{s}")
    }
}

// ---------------------------------------------------------------------------------------
// Regular expressions (Go's syntax and matching: `crate::gocompat::regexp`).

/// The result type for a pattern's matches: a string without capture groups, a tuple of
/// strings for unnamed groups, an object for named groups.
fn regex_result_type(re: &Regex) -> Result<Type, FuncError> {
    let mut unnamed = 0usize;
    let mut names: BTreeMap<String, Type> = BTreeMap::new();
    for name in re.capture_names().skip(1) {
        match name {
            None => unnamed += 1,
            Some(n) => {
                names.insert(n.to_string(), Type::String);
            }
        }
    }
    match (unnamed, names.is_empty()) {
        (0, true) => Ok(Type::String),
        (u, false) if u > 0 => Err(FuncError::arg(
            0,
            "invalid regexp pattern: cannot mix both named and unnamed capture groups",
        )),
        (u, true) => Ok(Type::Tuple(vec![Type::String; u])),
        (_, false) => Ok(Type::Object(names)),
    }
}

fn compile_for_regex_fn(pattern: &str) -> Result<(Regex, Type), FuncError> {
    let re = compile_go_regex(pattern).map_err(|e| {
        FuncError::arg(
            0,
            format!("invalid regexp pattern: {} in {}", e.code, e.expr),
        )
    })?;
    let ty = regex_result_type(&re)?;
    Ok((re, ty))
}

fn regex_match_value(re: &Regex, caps: &Captures<'_>, ty: &Type) -> Value {
    let group = |i: usize| match caps.get(i) {
        Some(m) => string(m.as_str()),
        None => Value::Null(Type::String),
    };
    match ty {
        Type::String => group(0),
        Type::Tuple(etys) => Value::tuple((1..=etys.len()).map(group).collect()),
        _ => Value::object(
            re.capture_names()
                .enumerate()
                .filter_map(|(i, n)| n.map(|n| (n.to_string(), group(i))))
                .collect(),
        ),
    }
}

fn regex_fn(args: &[Value]) -> Result<Value, FuncError> {
    let Some(Value::String(pattern)) = args.first() else {
        return Ok(Value::Unknown(Type::Dynamic));
    };
    let (re, ty) = compile_for_regex_fn(pattern)?;
    let Some(Value::String(s)) = args.get(1) else {
        return Ok(Value::Unknown(ty));
    };
    match re.captures(s) {
        Some(caps) => Ok(regex_match_value(&re, &caps, &ty)),
        None => Err(FuncError::new(
            "pattern did not match any part of the given string",
        )),
    }
}

fn regexall(args: &[Value]) -> Result<Value, FuncError> {
    let Some(Value::String(pattern)) = args.first() else {
        return Ok(Value::Unknown(Type::list(Type::Dynamic)));
    };
    let (re, ty) = compile_for_regex_fn(pattern)?;
    let Some(Value::String(s)) = args.get(1) else {
        return Ok(Value::Unknown(Type::list(ty)));
    };
    let elems = go_find_all(&re, s)
        .iter()
        .map(|caps| regex_match_value(&re, caps, &ty))
        .collect();
    Ok(Value::list(ty, elems))
}

fn replace(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let substr = str_arg(args, 1)?;
    let repl = str_arg(args, 2)?;
    // Terraform: a substring surrounded by slashes is a regular expression.
    if substr.len() > 1 && substr.starts_with('/') && substr.ends_with('/') {
        let pattern = &substr[1..substr.len() - 1];
        let re = compile_go_regex(pattern).map_err(|e| {
            FuncError::new(format!("error parsing regexp: {}: `{}`", e.code, e.expr))
        })?;
        return go_replace_all(&re, s, repl, MAX_STRING_LEN)
            .map(string)
            .ok_or_else(|| FuncError::new(TOO_LARGE));
    }
    let matches = if substr.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(substr).count()
    };
    let size = s
        .len()
        .saturating_add(matches.saturating_mul(repl.len()))
        .saturating_sub(matches.saturating_mul(substr.len()));
    if size > MAX_STRING_LEN {
        return Err(FuncError::new(TOO_LARGE));
    }
    Ok(string(s.replace(substr, repl)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::stdlib;
    use crate::number::Number;

    fn call(name: &str, args: Vec<Value>) -> Result<Value, FuncError> {
        stdlib().call(name, &args)
    }
    fn s(v: &str) -> Value {
        Value::string(v)
    }
    fn num(v: &str) -> Value {
        Value::Number(Number::parse(v).expect("number"))
    }
    fn strs(vs: &[&str]) -> Value {
        Value::list(Type::String, vs.iter().map(|v| s(v)).collect())
    }
    fn fmt(f: &str, args: Vec<Value>) -> Result<Value, FuncError> {
        let mut all = vec![s(f)];
        all.extend(args);
        call("format", all)
    }
    fn fmt_ok(f: &str, args: Vec<Value>) -> String {
        match fmt(f, args) {
            Ok(Value::String(s)) => s,
            other => panic!("format({f:?}) gave {other:?}"),
        }
    }

    #[test]
    fn case_mapping() {
        assert_eq!(call("upper", vec![s("hello ß ǆ")]), Ok(s("HELLO ß Ǆ")));
        assert_eq!(call("lower", vec![s("HELLO İ Σ")]), Ok(s("hello i σ")));
        assert_eq!(
            call("title", vec![s("hello world-foo_bar ǆx")]),
            Ok(s("Hello World-Foo_bar ǅx"))
        );
    }

    #[test]
    fn trimming() {
        assert_eq!(call("chomp", vec![s("hello\r\n\n\r")]), Ok(s("hello")));
        assert_eq!(
            call("chomp", vec![s("hello\nworld")]),
            Ok(s("hello\nworld"))
        );
        assert_eq!(call("trimspace", vec![s(" \t\nhi\u{a0} ")]), Ok(s("hi")));
        assert_eq!(call("trim", vec![s("?!hello?!"), s("!?")]), Ok(s("hello")));
        assert_eq!(
            call("trimprefix", vec![s("helloworld"), s("hello")]),
            Ok(s("world"))
        );
        assert_eq!(
            call("trimsuffix", vec![s("helloworld"), s("world")]),
            Ok(s("hello"))
        );
        assert_eq!(call("trimprefix", vec![s("hello"), s("x")]), Ok(s("hello")));
    }

    #[test]
    fn predicates() {
        assert_eq!(
            call("startswith", vec![s("hello"), s("he")]),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            call("startswith", vec![s("hello"), s("")]),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            call("endswith", vec![s("hello"), s("lo")]),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            call("endswith", vec![s("hello"), s("he")]),
            Ok(Value::Bool(false))
        );
        assert_eq!(
            call("strcontains", vec![s("hello"), s("ell")]),
            Ok(Value::Bool(true))
        );
    }

    #[test]
    fn graphemes() {
        assert_eq!(call("strrev", vec![s("héllo")]), Ok(s("olléh")));
        assert_eq!(call("strrev", vec![s("e\u{301}x")]), Ok(s("xe\u{301}")));
        assert_eq!(
            call("substr", vec![s("hello world"), num("1"), num("4")]),
            Ok(s("ello"))
        );
        assert_eq!(
            call("substr", vec![s("hello world"), num("-5"), num("-1")]),
            Ok(s("world"))
        );
        assert_eq!(
            call("substr", vec![s("hello"), num("10"), num("2")]),
            Ok(s(""))
        );
        assert_eq!(
            call("substr", vec![s("hello"), num("1"), num("0")]),
            Ok(s(""))
        );
        assert_eq!(
            call("substr", vec![s("abc"), num("-5"), num("2")]),
            Ok(s("ab"))
        );
        assert_eq!(
            call("substr", vec![s("abc"), num("-1"), num("0")]),
            Ok(s("c"))
        );
        assert_eq!(
            call("substr", vec![s("🤔🤷"), num("1"), num("1")]),
            Ok(s("🤷"))
        );
        assert_eq!(
            call("substr", vec![s("abc"), num("1.5"), num("1")]),
            Err(FuncError::new(super::super::numeric::NOT_AN_INT))
        );
    }

    #[test]
    fn split_and_join() {
        assert_eq!(
            call("split", vec![s(","), s("a,b,,c")]),
            Ok(strs(&["a", "b", "", "c"]))
        );
        assert_eq!(call("split", vec![s(","), s("")]), Ok(strs(&[""])));
        assert_eq!(
            call("split", vec![s(""), s("abc")]),
            Ok(strs(&["a", "b", "c"]))
        );
        assert_eq!(call("split", vec![s(""), s("")]), Ok(strs(&[])));
        assert_eq!(
            call("join", vec![s("-"), strs(&["a", "b"]), strs(&["c"])]),
            Ok(s("a-b-c"))
        );
        assert_eq!(call("join", vec![s("-"), strs(&[])]), Ok(s("")));
        assert_eq!(
            call("join", vec![s("-")]),
            Err(FuncError::new("at least one list is required"))
        );
        assert_eq!(
            call(
                "join",
                vec![
                    s("-"),
                    Value::list(Type::String, vec![s("a"), Value::Null(Type::String)])
                ]
            ),
            Err(FuncError::arg(
                1,
                "element 1 is null; cannot concatenate null values"
            ))
        );
        assert_eq!(
            call(
                "join",
                vec![
                    s("-"),
                    strs(&["a"]),
                    Value::list(Type::String, vec![Value::Null(Type::String)])
                ]
            ),
            Err(FuncError::arg(
                2,
                "element 0 of list 2 is null; cannot concatenate null values"
            ))
        );
        assert_eq!(
            call(
                "join",
                vec![
                    s("-"),
                    Value::list(Type::String, vec![Value::Unknown(Type::String)])
                ]
            ),
            Ok(Value::Unknown(Type::String))
        );
    }

    #[test]
    fn indent_lines() {
        assert_eq!(
            call("indent", vec![num("2"), s("a\nb\n")]),
            Ok(s("a\n  b\n  "))
        );
        assert_eq!(
            call("indent", vec![num("-1"), s("a")]),
            Err(FuncError::new(
                "panic in function implementation: strings: negative Repeat count"
            ))
        );
    }

    #[test]
    fn replace_plain_and_regex() {
        assert_eq!(
            call("replace", vec![s("1 + 2 + 3"), s("+"), s("-")]),
            Ok(s("1 - 2 - 3"))
        );
        assert_eq!(
            call("replace", vec![s("abc"), s(""), s("-")]),
            Ok(s("-a-b-c-"))
        );
        assert_eq!(
            call(
                "replace",
                vec![s("hello world"), s("/w.*d/"), s("everybody")]
            ),
            Ok(s("hello everybody"))
        );
        assert_eq!(
            call(
                "replace",
                vec![
                    s("hello world"),
                    s("/(\\w+) (\\w+)/"),
                    s("$2 $1 $$ ${1}x $3")
                ]
            ),
            Ok(s("world hello $ hellox "))
        );
        assert_eq!(
            call("replace", vec![s("baaab"), s("/a*/"), s("-")]),
            Ok(s("-b-b-"))
        );
        assert_eq!(
            call("replace", vec![s("abc"), s("/"), s("x")]),
            Ok(s("abc"))
        );
        assert_eq!(
            call("replace", vec![s("abc"), s("/(/"), s("x")]),
            Err(FuncError::new(
                "error parsing regexp: missing closing ): `(`"
            ))
        );
    }

    #[test]
    fn regex_results() {
        assert_eq!(
            call(
                "regex",
                vec![s("[a-z]+"), s("53453453.345345aaabbbccc23454")]
            ),
            Ok(s("aaabbbccc"))
        );
        assert_eq!(
            call(
                "regex",
                vec![s("(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)"), s("2019-02-01")]
            ),
            Ok(Value::tuple(vec![s("2019"), s("02"), s("01")]))
        );
        assert_eq!(
            call(
                "regex",
                vec![
                    s("^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?"),
                    s("https://terraform.io/docs/")
                ]
            ),
            Ok(Value::object_from([
                ("authority", s("terraform.io")),
                ("scheme", s("https"))
            ]))
        );
        assert_eq!(
            call("regex", vec![s("(a)|(b)"), s("b")]),
            Ok(Value::tuple(vec![Value::Null(Type::String), s("b")]))
        );
        assert_eq!(
            call("regex", vec![s("[a-z]+"), s("123")]),
            Err(FuncError::new(
                "pattern did not match any part of the given string"
            ))
        );
        assert_eq!(
            call("regex", vec![s("(?P<a>x)(y)"), s("xy")]),
            Err(FuncError::arg(
                0,
                "invalid regexp pattern: cannot mix both named and unnamed capture groups"
            ))
        );
        assert_eq!(
            call("regex", vec![Value::Unknown(Type::String), s("xy")]),
            Ok(Value::Unknown(Type::Dynamic))
        );
        assert_eq!(
            call("regex", vec![s("(x)"), Value::Unknown(Type::String)]),
            Ok(Value::Unknown(Type::Tuple(vec![Type::String])))
        );
        assert_eq!(
            call("regexall", vec![s("[a-z]+"), s("1234abcd5678efgh9")]),
            Ok(strs(&["abcd", "efgh"]))
        );
        assert_eq!(
            call("regexall", vec![s("a*"), s("baaab")]),
            Ok(strs(&["", "aaa", ""]))
        );
        assert_eq!(call("regexall", vec![s("x"), s("abc")]), Ok(strs(&[])));
        assert_eq!(
            call("regexall", vec![Value::Unknown(Type::String), s("abc")]),
            Ok(Value::Unknown(Type::list(Type::Dynamic)))
        );
    }

    #[test]
    fn go_regex_syntax() {
        // ASCII classes as in Go.
        assert_eq!(
            call("regexall", vec![s("\\w+"), s("héllo")]),
            Ok(strs(&["h", "llo"]))
        );
        assert_eq!(call("regex", vec![s("\\d+"), s("٣3")]), Ok(s("3")));
        // `[` is a literal inside a class; `{` a literal when not a repetition.
        assert_eq!(call("regex", vec![s("[[a]+"), s("x[a[")]), Ok(s("[a[")));
        assert_eq!(call("regex", vec![s("a{x}"), s("a{x}")]), Ok(s("a{x}")));
        assert_eq!(
            call("regex", vec![s("[[:digit:]]+"), s("ab12")]),
            Ok(s("12"))
        );
        assert_eq!(call("regex", vec![s("\\Qa.b\\E"), s("xa.b")]), Ok(s("a.b")));
        assert_eq!(call("regex", vec![s("\\101"), s("A")]), Ok(s("A")));
        let err = |p: &str| match call("regex", vec![s(p), s("x")]) {
            Err(e) => e.message,
            Ok(v) => panic!("{p}: {v:?}"),
        };
        assert_eq!(err("("), "invalid regexp pattern: missing closing ) in (");
        assert_eq!(err("a)"), "invalid regexp pattern: unexpected ) in a)");
        assert_eq!(err("[a"), "invalid regexp pattern: missing closing ] in [a");
        assert_eq!(
            err("*"),
            "invalid regexp pattern: missing argument to repetition operator in *"
        );
        assert_eq!(
            err("a**"),
            "invalid regexp pattern: invalid nested repetition operator in **"
        );
        assert_eq!(
            err("a{1001}"),
            "invalid regexp pattern: invalid repeat count in {1001}"
        );
        assert_eq!(
            err("\\q"),
            "invalid regexp pattern: invalid escape sequence in \\q"
        );
        assert_eq!(
            err("\\1"),
            "invalid regexp pattern: invalid escape sequence in \\1"
        );
        assert_eq!(
            err("(?x)a"),
            "invalid regexp pattern: invalid or unsupported Perl syntax in (?x"
        );
        assert_eq!(
            err("(?=a)"),
            "invalid regexp pattern: invalid or unsupported Perl syntax in (?="
        );
        assert_eq!(
            err("[z-a]"),
            "invalid regexp pattern: invalid character class range in z-a"
        );
        assert_eq!(
            err("a\\"),
            "invalid regexp pattern: trailing backslash at end of expression in "
        );
    }

    #[test]
    fn format_verbs() {
        assert_eq!(fmt_ok("Hello, %s!", vec![s("Ander")]), "Hello, Ander!");
        assert_eq!(
            fmt_ok("There are %d lights", vec![num("4")]),
            "There are 4 lights"
        );
        assert_eq!(fmt_ok("%%", vec![]), "%");
        assert_eq!(
            fmt_ok("%v %v %v", vec![s("a"), num("1.5"), Value::Bool(true)]),
            "a 1.5 true"
        );
        assert_eq!(fmt_ok("%v", vec![num("10000000")]), "1e+07");
        assert_eq!(fmt_ok("%v", vec![num("123456789")]), "1.23456789e+08");
        assert_eq!(fmt_ok("%v", vec![num("100000")]), "100000");
        assert_eq!(fmt_ok("%v", vec![num("0.0001")]), "0.0001");
        assert_eq!(fmt_ok("%v", vec![num("0.00001")]), "1e-05");
        assert_eq!(fmt_ok("%v", vec![Value::Null(Type::Dynamic)]), "null");
        assert_eq!(fmt_ok("%q", vec![s("a\"<b")]), "\"a\\\"\\u003cb\"");
        assert_eq!(fmt_ok("%t", vec![s("true")]), "true");
        assert_eq!(
            fmt_ok("%5s|%-5s|%05s", vec![s("ab"), s("cd"), s("ef")]),
            "   ab|cd   |000ef"
        );
        assert_eq!(fmt_ok("%.2s", vec![s("héllo")]), "hé");
        assert_eq!(fmt_ok("%.0s", vec![s("abc")]), "abc");
        assert_eq!(fmt_ok("%[2]s %[1]s %s", vec![s("a"), s("b")]), "b a b");
        assert_eq!(fmt_ok("%s", vec![num("1.5")]), "1.5");
    }

    #[test]
    fn format_numbers() {
        assert_eq!(fmt_ok("%f", vec![num("3.14159")]), "3.141590");
        assert_eq!(fmt_ok("%.2f", vec![num("3.14159")]), "3.14");
        assert_eq!(fmt_ok("%.0f", vec![num("2.5")]), "2");
        assert_eq!(fmt_ok("%.0f", vec![num("3.5")]), "4");
        assert_eq!(fmt_ok("%.1f", vec![num("0.25")]), "0.2");
        // 0.35 is not exact in binary; the 512-bit value is below 0.35.
        assert_eq!(fmt_ok("%.1f", vec![num("0.35")]), "0.3");
        assert_eq!(fmt_ok("%.1f", vec![num("0.05")]), "0.1");
        assert_eq!(
            fmt_ok(
                "%8.3f|%-8.3f|%08.3f",
                vec![num("-3.14159"), num("2"), num("-1")]
            ),
            "  -3.142|2.000   |-001.000"
        );
        assert_eq!(fmt_ok("%+.1f % .1f", vec![num("1"), num("1")]), "+1.0  1.0");
        assert_eq!(fmt_ok("%e", vec![num("123456")]), "1.234560e+05");
        assert_eq!(fmt_ok("%E", vec![num("0")]), "0.000000E+00");
        assert_eq!(fmt_ok("%.3e", vec![num("-0.00012345")]), "-1.234e-04");
        assert_eq!(fmt_ok("%g", vec![num("0.00001234")]), "1.234e-05");
        assert_eq!(fmt_ok("%g", vec![num("1234567")]), "1.234567e+06");
        assert_eq!(fmt_ok("%.3g", vec![num("1234.5678")]), "1.23e+03");
        assert_eq!(fmt_ok("%.3g", vec![num("1.5")]), "1.5");
        assert_eq!(fmt_ok("%G", vec![num("1e-10")]), "1E-10");
        assert_eq!(
            fmt_ok(
                "%b %o %x %X",
                vec![num("10"), num("8"), num("255"), num("255")]
            ),
            "1010 10 ff FF"
        );
        assert_eq!(
            fmt_ok(
                "%#b %#o %#x %#X",
                vec![num("5"), num("8"), num("255"), num("255")]
            ),
            "0b101 010 0xff 0XFF"
        );
        assert_eq!(
            fmt_ok(
                "%05d|%-5d|%5d|%+d|% d",
                vec![num("-42"), num("42"), num("42"), num("42"), num("42")]
            ),
            "-0042|42   |   42|+42| 42"
        );
        assert_eq!(
            fmt_ok("%.3d|%6.3d|%.0d", vec![num("7"), num("7"), num("0")]),
            "007|   007|"
        );
        assert_eq!(fmt_ok("%d", vec![s("12")]), "12");
        assert_eq!(
            fmt_ok("%d", vec![num("123456789012345678901234567890")]),
            "123456789012345678901234567890"
        );
    }

    #[test]
    fn format_errors() {
        let err = |f: &str, args: Vec<Value>| fmt(f, args).expect_err("error");
        assert_eq!(
            err("%d", vec![num("1.5")]).message,
            "unsupported value for \"%d\" at 0: an integer is required"
        );
        assert_eq!(
            err("%d", vec![s("x")]).message,
            "unsupported value for \"%d\" at 0: a number is required"
        );
        assert_eq!(
            err("%s", vec![Value::Null(Type::String)]).message,
            "unsupported value for \"%s\" at 0: null value cannot be formatted"
        );
        assert_eq!(
            err("%s %s", vec![s("a")]).message,
            "not enough arguments for \"%s\" at 3: need index 2 but have 1 total"
        );
        assert_eq!(
            err("%y", vec![s("a")]).message,
            "unsupported format verb 'y' in \"%y\" at offset 0"
        );
        assert_eq!(
            err("abc%", vec![]).message,
            "invalid format string starting at offset 4"
        );
        assert_eq!(
            err("%!", vec![]).message,
            "unrecognized format character '!' at offset 1"
        );
        assert_eq!(
            err("%[2]5s", vec![s("a"), s("b")]).message,
            "unrecognized format character '5' at offset 4"
        );
        assert_eq!(
            err("hello", vec![s("a")]),
            FuncError::arg(1, "too many arguments; no verbs in format string")
        );
        assert_eq!(
            err("%s", vec![s("a"), s("b")]),
            FuncError::arg(2, "too many arguments; only 1 used by format string")
        );
    }

    #[test]
    fn format_unknowns() {
        assert_eq!(
            fmt("%s", vec![Value::Unknown(Type::String)]),
            Ok(Value::Unknown(Type::String))
        );
        assert_eq!(
            fmt("%s", vec![Value::Unknown(Type::Dynamic)]),
            Ok(Value::Unknown(Type::Dynamic))
        );
        assert_eq!(
            fmt(
                "%v",
                vec![Value::list(
                    Type::String,
                    vec![Value::Unknown(Type::String)]
                )]
            ),
            Ok(Value::Unknown(Type::String))
        );
        // Unknown arguments win over format errors.
        assert_eq!(
            fmt("%d", vec![Value::Unknown(Type::String)]),
            Ok(Value::Unknown(Type::String))
        );
    }

    #[test]
    fn formatlist_iterates() {
        assert_eq!(
            call(
                "formatlist",
                vec![s("Hello, %s!"), strs(&["Valentina", "Ander"])]
            ),
            Ok(strs(&["Hello, Valentina!", "Hello, Ander!"]))
        );
        assert_eq!(
            call(
                "formatlist",
                vec![
                    s("%s, %s!"),
                    s("Salutations"),
                    strs(&["Valentina", "Ander"])
                ]
            ),
            Ok(strs(&["Salutations, Valentina!", "Salutations, Ander!"]))
        );
        assert_eq!(call("formatlist", vec![s("x")]), Ok(strs(&["x"])));
        assert_eq!(call("formatlist", vec![s("%s"), strs(&[])]), Ok(strs(&[])));
        assert_eq!(
            call(
                "formatlist",
                vec![s("%s%s"), strs(&["a"]), strs(&["b", "c"])]
            ),
            Err(FuncError::arg(
                2,
                "argument 2 has length 2, which is inconsistent with argument 1 of length 1"
            ))
        );
        assert_eq!(
            call("formatlist", vec![s("%d"), strs(&["a"])]),
            Err(FuncError::new("error on format iteration 0: unsupported value for \"%d\" at 0: a number is required"))
        );
        assert_eq!(
            call(
                "formatlist",
                vec![
                    s("%s"),
                    Value::list(Type::String, vec![s("a"), Value::Unknown(Type::String)])
                ]
            ),
            Ok(Value::list(
                Type::String,
                vec![s("a"), Value::Unknown(Type::String)]
            ))
        );
        assert_eq!(
            call(
                "formatlist",
                vec![s("%s"), Value::Unknown(Type::list(Type::String))]
            ),
            Ok(Value::Unknown(Type::list(Type::String)))
        );
    }

    #[test]
    fn go_quote_rune_forms() {
        assert_eq!(go_quote_rune('a'), "'a'");
        assert_eq!(go_quote_rune('\''), "'\\''");
        assert_eq!(go_quote_rune('\n'), "'\\n'");
        assert_eq!(go_quote_rune('é'), "'é'");
    }
}
