//! Encoding functions, as Terraform 1.5 defines them: `base64decode`, `base64encode`,
//! `base64gzip`, `textdecodebase64`, `textencodebase64`, `urlencode`
//! (`internal/lang/funcs/encoding.go`), `csvdecode`, `jsondecode`, `jsonencode` (cty's
//! stdlib) and `yamldecode`, `yamlencode` (`github.com/zclconf/go-cty-yaml` v1.0.3).
//!
//! Go behaviours reproduced here:
//! - Base64 is Go's `base64.StdEncoding`: padding required, `\r` and `\n` ignored, non-zero
//!   trailing bits accepted, errors located by byte offset.
//! - `urlencode` is `url.QueryEscape` (space as `+`, everything but `A-Za-z0-9-_.~` escaped).
//! - `csvdecode` follows Go's `encoding/csv` reader (RFC 4180, `""` escapes, quoted fields
//!   spanning lines, `\r\n` normalised, empty lines skipped) and its error texts.
//! - `base64gzip` writes a gzip stream framed as Go's `compress/gzip` writer does (zero
//!   mtime, OS 255, a sync flush, then an empty final stored block).
//! - `textencodebase64`/`textdecodebase64` take IANA names and aliases as
//!   `golang.org/x/text/encoding/ianaindex` does; see the README for the supported set.
//! - `yamlencode` is a port of the libyaml emitter as go-cty-yaml drives it: strings
//!   double-quoted (literal block style when they contain a newline), numbers, bools and
//!   null plain, block collections, 80-column folding, and the `...` end marker after a
//!   plain scalar document.
//! - `yamldecode` resolves scalars with go-cty-yaml's YAML 1.1-style rules (`yes`/`no`/
//!   `on`/`off`, `~`, timestamps, hex/octal integers, `!!binary`...), rejects multiple
//!   documents, recursive aliases and unsupported tags with go-cty-yaml's messages.
//!
//! The Go reproductions themselves (Base64 decoding, flate and gzip, the CSV reader, JSON,
//! YAML and x/text's IANA index) live in `crate::gocompat`; this module holds the
//! functions, a file per codec.

mod base64;
mod csv;
mod json;
mod text;
mod url;
mod yaml;

use self::base64::{base64decode, base64encode, base64gzip};
use self::csv::csvdecode;
use self::json::{jsondecode, jsonencode};
use self::text::{textdecodebase64, textencodebase64};
use self::url::urlencode;
use self::yaml::{yamldecode, yamlencode};
use super::{Function, FunctionTable, Param};
use crate::types::Type;

pub fn register(t: &mut FunctionTable) {
    t.add(Function::new(
        "base64decode",
        vec![Param::new("str", Type::String)],
        Type::String,
        base64decode,
    ));
    t.add(Function::new(
        "base64encode",
        vec![Param::new("str", Type::String)],
        Type::String,
        base64encode,
    ));
    t.add(Function::new(
        "base64gzip",
        vec![Param::new("str", Type::String)],
        Type::String,
        base64gzip,
    ));
    t.add(Function::new(
        "textencodebase64",
        vec![
            Param::new("string", Type::String),
            Param::new("encoding", Type::String),
        ],
        Type::String,
        textencodebase64,
    ));
    t.add(Function::new(
        "textdecodebase64",
        vec![
            Param::new("source", Type::String),
            Param::new("encoding", Type::String),
        ],
        Type::String,
        textdecodebase64,
    ));
    t.add(Function::new(
        "urlencode",
        vec![Param::new("str", Type::String)],
        Type::String,
        urlencode,
    ));
    t.add(Function::new(
        "csvdecode",
        vec![Param::new("str", Type::String)],
        Type::Dynamic,
        csvdecode,
    ));
    t.add(Function::new(
        "jsondecode",
        vec![Param::new("str", Type::String)],
        Type::Dynamic,
        jsondecode,
    ));
    t.add(Function::new(
        "jsonencode",
        vec![Param::new("val", Type::Dynamic).allow_null()],
        Type::String,
        jsonencode,
    ));
    t.add(Function::new(
        "yamldecode",
        vec![Param::new("src", Type::String)],
        Type::Dynamic,
        yamldecode,
    ));
    t.add(Function::new(
        "yamlencode",
        vec![Param::new("value", Type::Dynamic).allow_null()],
        Type::String,
        yamlencode,
    ));
}
