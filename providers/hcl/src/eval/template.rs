//! Templates: quoted strings with interpolations, heredocs and standalone templates.
//!
//! hcl-edit's template tree is flattened into HCL's "template tokens" (literals,
//! interpolations and directive markers), then processed exactly as HCL's parser does:
//! `~` strip markers trim the neighbouring literal tokens, `<<-` heredocs drop the
//! smallest indentation of their lines (blank lines ignored), consecutive literals meld,
//! and a template that is a single interpolation evaluates to its value unconverted.
//! Literal tokens are one per source line in heredocs and standalone templates (as HCL's
//! scanner emits them), so a strip marker there never trims across a line break of the
//! source.

use std::ops::Range as Span;

use hcl_edit::expr::Expression;
use hcl_edit::template::{Directive, Element, Strip, Template};
use hcl_edit::Span as _;
use unicode_segmentation::UnicodeSegmentation;

use super::{CondRanges, EvalContext, Evaluated, Evaluator, ForLoop};
use crate::convert::convert;
use crate::diag::{has_errors, Diagnostic};
use crate::functions::string::MAX_STRING_LEN;
use crate::types::Type;
use crate::value::Value;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A quoted string: backslash escapes, one literal token per run.
    Quoted,
    /// `<<EOF`: no escapes, one literal token per line.
    Heredoc,
    /// `<<-EOF`: as `Heredoc`, with the common indentation removed.
    FlushHeredoc,
    /// A standalone template (template files): as `Heredoc`.
    Bare,
}

enum Tok<'a> {
    Lit {
        val: String,
        span: Option<Span<usize>>,
    },
    Interp {
        expr: &'a Expression,
        strip: Strip,
    },
    If {
        cond: &'a Expression,
        strip: Strip,
        span: Option<Span<usize>>,
    },
    Else {
        strip: Strip,
    },
    EndIf {
        strip: Strip,
    },
    For {
        key: Option<&'a str>,
        value: &'a str,
        coll: &'a Expression,
        strip: Strip,
        span: Option<Span<usize>>,
    },
    EndFor {
        strip: Strip,
    },
}

impl Tok<'_> {
    fn strip(&self) -> Strip {
        match self {
            Tok::Lit { .. } => Strip::None,
            Tok::Interp { strip, .. }
            | Tok::If { strip, .. }
            | Tok::Else { strip }
            | Tok::EndIf { strip }
            | Tok::For { strip, .. }
            | Tok::EndFor { strip } => *strip,
        }
    }
}

enum Node<'a> {
    Lit(String),
    Interp(&'a Expression),
    If {
        cond: &'a Expression,
        then: Vec<Node<'a>>,
        els: Vec<Node<'a>>,
        span: Option<Span<usize>>,
    },
    For {
        key: Option<&'a str>,
        value: &'a str,
        coll: &'a Expression,
        body: Vec<Node<'a>>,
        span: Option<Span<usize>>,
    },
}

impl Evaluator<'_> {
    pub(crate) fn template(&mut self, t: &Template, mode: Mode, ctx: &EvalContext) -> Evaluated {
        let mut diags = Vec::new();
        let mut toks = Vec::new();
        self.flatten(t, mode, &mut toks, &mut diags);
        strip_markers(&mut toks);
        if mode == Mode::FlushHeredoc {
            flush_heredoc(&mut toks);
        }
        meld_literals(&mut toks);
        if let [Tok::Interp { expr, .. }] = toks.as_slice() {
            let (v, d) = self.eval(expr, ctx);
            diags.extend(d);
            return (v, diags);
        }
        let (nodes, _) = build_until(&mut toks.into_iter());
        let (v, d) = self.eval_parts(&nodes, t.span(), ctx);
        diags.extend(d);
        (v, diags)
    }

    fn flatten<'a>(
        &self,
        t: &'a Template,
        mode: Mode,
        out: &mut Vec<Tok<'a>>,
        diags: &mut Vec<Diagnostic>,
    ) {
        for element in t.iter() {
            match element {
                Element::Literal(lit) => {
                    let span = lit.span().filter(|s| self.src.slice(s.clone()).is_some());
                    match (mode, span) {
                        (Mode::Quoted, Some(span)) => {
                            let val = super::strings::decode_quoted(self.src, span.clone(), diags);
                            out.push(Tok::Lit {
                                val,
                                span: Some(span),
                            });
                        }
                        (Mode::Quoted, None) => out.push(Tok::Lit {
                            val: lit.value().clone(),
                            span: None,
                        }),
                        (_, Some(span)) => {
                            let raw = self.src.slice(span.clone()).unwrap_or_default();
                            push_lines(out, raw, Some(span.start), true);
                        }
                        (_, None) => push_lines(out, lit.value(), None, false),
                    }
                }
                Element::Interpolation(i) => out.push(Tok::Interp {
                    expr: &i.expr,
                    strip: i.strip,
                }),
                Element::Directive(d) => match d.as_ref() {
                    Directive::If(d) => {
                        out.push(Tok::If {
                            cond: &d.if_expr.cond_expr,
                            strip: d.if_expr.strip,
                            span: d.span(),
                        });
                        self.flatten(&d.if_expr.template, mode, out, diags);
                        if let Some(e) = &d.else_expr {
                            out.push(Tok::Else { strip: e.strip });
                            self.flatten(&e.template, mode, out, diags);
                        }
                        out.push(Tok::EndIf {
                            strip: d.endif_expr.strip,
                        });
                    }
                    Directive::For(d) => {
                        out.push(Tok::For {
                            key: d.for_expr.key_var.as_ref().map(|k| k.value().as_str()),
                            value: d.for_expr.value_var.value().as_str(),
                            coll: &d.for_expr.collection_expr,
                            strip: d.for_expr.strip,
                            span: d.span(),
                        });
                        self.flatten(&d.for_expr.template, mode, out, diags);
                        out.push(Tok::EndFor {
                            strip: d.endfor_expr.strip,
                        });
                    }
                },
            }
        }
    }

    /// HCL's `TemplateExpr.Value` over `parts`.
    fn eval_parts(
        &mut self,
        parts: &[Node<'_>],
        span: Option<Span<usize>>,
        ctx: &EvalContext,
    ) -> Evaluated {
        let _ = span;
        let mut buf = String::new();
        let mut diags = Vec::new();
        let mut known = true;
        for part in parts {
            let (v, d, part_span) = self.eval_node(part, ctx);
            diags.extend(d);
            if v.is_null() {
                diags.push(Diagnostic::error(
                    "Invalid template interpolation value",
                    "The expression result is null. Cannot include a null value in a string template.",
                    self.range(part_span),
                ));
                continue;
            }
            if v.is_unknown() {
                known = false;
                continue;
            }
            match convert(&v, &Type::String) {
                Ok(Value::String(s)) => {
                    if known && !has_errors(&diags) {
                        if buf.len().saturating_add(s.len()) > MAX_STRING_LEN {
                            diags.push(too_large(self.range(part_span)));
                            continue;
                        }
                        if let Err(e) = self.budget.charge(0, s.len() as u64) {
                            diags.push(super::too_expensive(e, self.range(part_span)));
                            return (super::dynamic(), diags);
                        }
                        buf.push_str(&s);
                    }
                }
                Ok(_) => known = false,
                Err(e) => diags.push(Diagnostic::error(
                    "Invalid template interpolation value",
                    format!("Cannot include the given value in a string template: {e}."),
                    self.range(part_span),
                )),
            }
        }
        if !known {
            return (Value::Unknown(Type::String), diags);
        }
        // cty.StringVal NFC-normalizes the concatenation.
        (Value::string(buf), diags)
    }

    fn eval_node(
        &mut self,
        node: &Node<'_>,
        ctx: &EvalContext,
    ) -> (Value, Vec<Diagnostic>, Option<Span<usize>>) {
        match node {
            Node::Lit(s) => (Value::string(s.clone()), Vec::new(), None),
            Node::Interp(e) => {
                let (v, d) = self.eval(e, ctx);
                (v, d, e.span())
            }
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let t = self.eval_parts(then, None, ctx);
                let f = self.eval_parts(els, None, ctx);
                let c = self.eval(cond, ctx);
                let ranges = CondRanges {
                    cond: self.range_of(*cond),
                    true_result: span.clone(),
                    false_result: span.clone(),
                };
                let (v, d) = self.conditional(c, t, f, ranges);
                (v, d, span.clone())
            }
            Node::For {
                key,
                value,
                coll,
                body,
                span,
            } => {
                let spec = ForLoop {
                    key_var: *key,
                    value_var: value,
                    coll,
                    cond: None,
                    span: span.clone(),
                };
                let (tuple, mut diags) =
                    self.for_tuple(&spec, ctx, |ev, child| ev.eval_parts(body, None, child));
                let v = self.template_join(tuple, span.clone(), &mut diags);
                (v, diags, span.clone())
            }
        }
    }

    /// HCL's `TemplateJoinExpr.Value`.
    fn template_join(
        &self,
        tuple: Value,
        span: Option<Span<usize>>,
        diags: &mut Vec<Diagnostic>,
    ) -> Value {
        let Value::Tuple(items) = tuple else {
            return Value::Unknown(Type::String);
        };
        let mut buf = String::new();
        for item in items {
            if item.is_null() {
                diags.push(Diagnostic::error(
                    "Invalid template interpolation value",
                    "An iteration result is null. Cannot include a null value in a string template.",
                    self.range(span.clone()),
                ));
                continue;
            }
            if item.ty() == Type::Dynamic || item.is_unknown() {
                return Value::Unknown(Type::String);
            }
            match convert(&item, &Type::String) {
                Ok(Value::String(s)) => {
                    if buf.len().saturating_add(s.len()) > MAX_STRING_LEN {
                        diags.push(too_large(self.range(span.clone())));
                        return Value::Unknown(Type::String);
                    }
                    if let Err(e) = self.budget.charge(0, s.len() as u64) {
                        diags.push(super::too_expensive(e, self.range(span.clone())));
                        return Value::Unknown(Type::String);
                    }
                    buf.push_str(&s)
                }
                Ok(_) => return Value::Unknown(Type::String),
                Err(e) => diags.push(Diagnostic::error(
                    "Invalid template interpolation value",
                    format!(
                        "Cannot include one of the interpolation results into the string template: {e}."
                    ),
                    self.range(span.clone()),
                )),
            }
        }
        Value::string(buf)
    }
}

/// Splits heredoc/template literal text into one token per line (each keeps its newline).
fn push_lines(out: &mut Vec<Tok<'_>>, text: &str, start: Option<usize>, raw: bool) {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let val = if raw {
            super::strings::decode_heredoc(line)
        } else {
            line.to_string()
        };
        out.push(Tok::Lit {
            val,
            span: start.map(|s| s + offset..s + offset + line.len()),
        });
        offset += line.len();
    }
}

/// Applies the `~` strip markers as HCL's `parseTemplateParts` does.
fn strip_markers(toks: &mut [Tok<'_>]) {
    let mut ltrim_next = false;
    let mut prev_is_lit = false;
    for i in 0..toks.len() {
        let ltrim = std::mem::take(&mut ltrim_next);
        let can_trim_prev = std::mem::take(&mut prev_is_lit);
        let strip = toks.get(i).map(Tok::strip).unwrap_or_default();
        match toks.get_mut(i) {
            Some(Tok::Lit { val, .. }) => {
                if ltrim {
                    *val = val.trim_start().to_string();
                }
                prev_is_lit = true;
            }
            Some(_) => {
                if can_trim_prev && strip.strip_start() {
                    if let Some(Tok::Lit { val, .. }) =
                        i.checked_sub(1).and_then(|p| toks.get_mut(p))
                    {
                        *val = val.trim_end().to_string();
                    }
                }
                ltrim_next = strip.strip_end();
            }
            None => {}
        }
    }
}

/// HCL's `flushHeredocTemplateParts`: the smallest indentation (in grapheme clusters) of
/// the lines is removed from every line; lines of only whitespace are not counted (and not
/// changed); a line starting with an interpolation or directive has no indentation.
fn flush_heredoc(toks: &mut [Tok<'_>]) {
    let mut min_spaces = usize::MAX;
    let mut newline = true;
    let mut adjust = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        if newline {
            newline = false;
            let spaces = match tok {
                Tok::Lit { val, .. } => {
                    let trimmed = val.trim_start();
                    if trimmed.is_empty() && val.ends_with('\n') {
                        usize::MAX
                    } else {
                        adjust.push(i);
                        val.get(..val.len() - trimmed.len())
                            .map_or(0, |ws| ws.graphemes(true).count())
                    }
                }
                _ => 0,
            };
            min_spaces = min_spaces.min(spaces);
        }
        if let Tok::Lit { val, .. } = tok {
            if val.ends_with('\n') {
                newline = true;
            }
        }
    }
    if min_spaces == usize::MAX || min_spaces == 0 {
        return;
    }
    for i in adjust {
        if let Some(Tok::Lit { val, span }) = toks.get_mut(i) {
            let cut: usize = val.graphemes(true).take(min_spaces).map(str::len).sum();
            *val = val.get(cut..).unwrap_or_default().to_string();
            if let Some(s) = span {
                s.start = (s.start + cut).min(s.end);
            }
        }
    }
}

/// Joins consecutive literal tokens.
fn meld_literals(toks: &mut Vec<Tok<'_>>) {
    let mut out: Vec<Tok<'_>> = Vec::with_capacity(toks.len());
    for tok in toks.drain(..) {
        if let Tok::Lit { val, span } = &tok {
            if let Some(Tok::Lit {
                val: prev,
                span: prev_span,
            }) = out.last_mut()
            {
                prev.push_str(val);
                *prev_span = match (prev_span.take(), span) {
                    (Some(a), Some(b)) => Some(a.start..b.end),
                    _ => None,
                };
                continue;
            }
        }
        out.push(tok);
    }
    *toks = out;
}

/// What ended a run of template tokens.
enum Stop {
    Else,
    EndIf,
    EndFor,
    Eof,
}

/// Builds the template tree from the flat tokens up to the end marker of the enclosing
/// directive (hcl-edit only produces balanced directives; nesting is bounded by its parser).
fn build_until<'a>(toks: &mut impl Iterator<Item = Tok<'a>>) -> (Vec<Node<'a>>, Stop) {
    let mut nodes = Vec::new();
    loop {
        let Some(tok) = toks.next() else {
            if nodes.is_empty() {
                nodes.push(Node::Lit(String::new()));
            }
            return (nodes, Stop::Eof);
        };
        match tok {
            Tok::Lit { val, .. } => nodes.push(Node::Lit(val)),
            Tok::Interp { expr, .. } => nodes.push(Node::Interp(expr)),
            Tok::If { cond, span, .. } => {
                let (mut then, end) = build_until(toks);
                let mut els = Vec::new();
                if matches!(end, Stop::Else) {
                    let (e, _) = build_until(toks);
                    els = e;
                }
                if then.is_empty() {
                    then.push(Node::Lit(String::new()));
                }
                if els.is_empty() {
                    els.push(Node::Lit(String::new()));
                }
                nodes.push(Node::If {
                    cond,
                    then,
                    els,
                    span,
                });
            }
            Tok::For {
                key,
                value,
                coll,
                span,
                ..
            } => {
                let (mut body, _) = build_until(toks);
                if body.is_empty() {
                    body.push(Node::Lit(String::new()));
                }
                nodes.push(Node::For {
                    key,
                    value,
                    coll,
                    body,
                    span,
                });
            }
            Tok::Else { .. } => return (nodes, Stop::Else),
            Tok::EndIf { .. } => return (nodes, Stop::EndIf),
            Tok::EndFor { .. } => return (nodes, Stop::EndFor),
        }
    }
}

/// A template result beyond [`MAX_STRING_LEN`] bytes (a limit HCL does not have: nested
/// templates repeating a value would otherwise grow exponentially).
fn too_large(range: Option<crate::diag::Range>) -> Diagnostic {
    Diagnostic::error(
        "Template result too large",
        format!("A string template may produce at most {MAX_STRING_LEN} bytes."),
        range,
    )
}
