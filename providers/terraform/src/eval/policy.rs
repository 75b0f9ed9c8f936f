//! `data "aws_iam_policy_document"` evaluated statically, as terraform-provider-aws does
//! (`internal/service/iam/policy_document_data_source.go`, `policy_model.go`): the data
//! source is a pure function of its arguments, so when they are known its `json` (Go's
//! `json.MarshalIndent`), `minified_json` (`json.Marshal`) and `id` (the CRC-32 of `json`)
//! are known too.
//!
//! The provider's shapes: `Version` (default `2012-10-17`), `Id` (`policy_id`), then the
//! statements with `Sid` (when not empty), `Effect` (default `Allow`), `Action`,
//! `NotAction`, `Resource`, `NotResource` (a single value as a string, several sorted in
//! reverse order, `&{` written `${`), `Principal`/`NotPrincipal` (by type; a single `*`
//! principal of type `*` is `"*"`), `Condition` (by test, then variable; one value as a
//! string, several in order). `source_policy_documents` are merged first and
//! `override_policy_documents` last, statements with the same `Sid` replaced.
//!
//! Where the provider's output depends on the hash order of its sets (two `principals`
//! blocks of one type), blocks are taken in configuration order.

use std::collections::BTreeMap;

use cloudspec_hcl::hcldec::gojson::Json;
use cloudspec_hcl::Value;

/// A statement as the provider models it.
#[derive(Clone, Debug, Default)]
struct Statement {
    sid: String,
    effect: String,
    actions: Option<Json>,
    not_actions: Option<Json>,
    resources: Option<Json>,
    not_resources: Option<Json>,
    principals: Vec<(String, Ids)>,
    not_principals: Vec<(String, Ids)>,
    conditions: Vec<(String, String, Ids)>,
}

/// Identifiers or values: one string, or a list.
#[derive(Clone, Debug)]
enum Ids {
    One(String),
    Many(Vec<String>),
}

#[derive(Clone, Debug, Default)]
struct Doc {
    version: String,
    id: String,
    statements: Vec<Statement>,
}

impl Doc {
    fn merge(&mut self, new: Doc) {
        if !new.id.is_empty() {
            self.id = new.id;
        }
        if new.version > self.version {
            self.version = new.version;
        }
        for st in new.statements {
            if st.sid.is_empty() {
                self.statements.push(st);
                continue;
            }
            match self.statements.iter_mut().find(|s| s.sid == st.sid) {
                Some(existing) => *existing = st,
                None => self.statements.push(st),
            }
        }
    }

    fn to_json(&self) -> Json {
        let mut members = Vec::new();
        if !self.version.is_empty() {
            members.push(("Version".to_string(), Json::String(self.version.clone())));
        }
        if !self.id.is_empty() {
            members.push(("Id".to_string(), Json::String(self.id.clone())));
        }
        if !self.statements.is_empty() {
            members.push((
                "Statement".to_string(),
                Json::Array(self.statements.iter().map(Statement::to_json).collect()),
            ));
        }
        Json::Object(members)
    }
}

impl Statement {
    fn to_json(&self) -> Json {
        let mut m = Vec::new();
        if !self.sid.is_empty() {
            m.push(("Sid".to_string(), Json::String(self.sid.clone())));
        }
        if !self.effect.is_empty() {
            m.push(("Effect".to_string(), Json::String(self.effect.clone())));
        }
        for (name, v) in [
            ("Action", &self.actions),
            ("NotAction", &self.not_actions),
            ("Resource", &self.resources),
            ("NotResource", &self.not_resources),
        ] {
            if let Some(v) = v {
                if !matches!(v, Json::Array(a) if a.is_empty()) {
                    m.push((name.to_string(), v.clone()));
                }
            }
        }
        if !self.principals.is_empty() {
            m.push(("Principal".to_string(), principals_json(&self.principals)));
        }
        if !self.not_principals.is_empty() {
            m.push((
                "NotPrincipal".to_string(),
                principals_json(&self.not_principals),
            ));
        }
        if !self.conditions.is_empty() {
            m.push(("Condition".to_string(), conditions_json(&self.conditions)));
        }
        Json::Object(m)
    }
}

/// `IAMPolicyStatementPrincipalSet.MarshalJSON`.
fn principals_json(ps: &[(String, Ids)]) -> Json {
    if let [(t, ids)] = ps {
        let star = match ids {
            Ids::One(s) => s == "*",
            Ids::Many(v) => v.len() == 1 && v[0] == "*",
        };
        if t == "*" && star {
            return Json::String("*".into());
        }
    }
    let mut raw: BTreeMap<String, Ids> = BTreeMap::new();
    for (t, ids) in ps {
        match ids {
            Ids::Many(list) => {
                let mut list = list.clone();
                list.sort();
                list.reverse();
                let entry = raw.entry(t.clone()).or_insert(Ids::Many(Vec::new()));
                let mut current = match std::mem::replace(entry, Ids::Many(Vec::new())) {
                    Ids::One(s) => vec![s],
                    Ids::Many(v) => v,
                };
                current.extend(list);
                *entry = Ids::Many(current);
            }
            Ids::One(s) => match raw.get_mut(t) {
                None => {
                    raw.insert(t.clone(), Ids::One(s.clone()));
                }
                Some(existing) => {
                    let mut current = match std::mem::replace(existing, Ids::Many(Vec::new())) {
                        Ids::One(v) => vec![v],
                        Ids::Many(v) => v,
                    };
                    current.push(s.clone());
                    *existing = Ids::Many(current);
                }
            },
        }
    }
    Json::Object(raw.into_iter().map(|(k, v)| (k, ids_json(&v))).collect())
}

fn ids_json(ids: &Ids) -> Json {
    match ids {
        Ids::One(s) => Json::String(s.clone()),
        Ids::Many(v) => Json::Array(v.iter().map(|s| Json::String(s.clone())).collect()),
    }
}

/// `IAMPolicyStatementConditionSet.MarshalJSON`.
fn conditions_json(cs: &[(String, String, Ids)]) -> Json {
    let mut raw: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (test, variable, values) in cs {
        let list = raw
            .entry(test.clone())
            .or_default()
            .entry(variable.clone())
            .or_default();
        match values {
            Ids::One(s) => list.push(s.clone()),
            Ids::Many(v) => list.extend(v.iter().cloned()),
        }
    }
    Json::Object(
        raw.into_iter()
            .map(|(test, vars)| {
                let inner = vars
                    .into_iter()
                    .map(|(var, values)| {
                        let v = if values.len() == 1 {
                            Json::String(values[0].clone())
                        } else {
                            Json::Array(values.into_iter().map(Json::String).collect())
                        };
                        (var, v)
                    })
                    .collect();
                (test, Json::Object(inner))
            })
            .collect(),
    )
}

/// The strings of a known list/set/tuple value, `None` otherwise (null: empty).
fn strings(v: Option<&Value>) -> Result<Vec<String>, String> {
    match v {
        None | Some(Value::Null(_)) => Ok(Vec::new()),
        Some(Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs)) => vs
            .iter()
            .map(|e| match e {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                Value::Bool(b) => Ok(b.to_string()),
                _ => Err("a list of strings is required".to_string()),
            })
            .collect(),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(_) => Err("a list of strings is required".to_string()),
    }
}

fn string(v: Option<&Value>) -> Result<Option<String>, String> {
    match v {
        None | Some(Value::Null(_)) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(Value::Bool(b)) => Ok(Some(b.to_string())),
        Some(_) => Err("a string is required".to_string()),
    }
}

/// `dataSourcePolicyDocumentReplaceVarsInList`.
fn replace_vars(s: String, version: &str) -> Result<String, String> {
    if version == "2008-10-17" && s.contains("&{") {
        return Err(format!(
            "found &{{ sequence in ({s}), which is not supported in document version 2008-10-17"
        ));
    }
    Ok(s.replace("&{", "${"))
}

/// `policyDecodeConfigStringList`: one element as itself, several sorted in reverse.
fn decode_list(mut l: Vec<String>) -> Ids {
    if l.len() == 1 {
        return Ids::One(l.remove(0));
    }
    l.sort();
    l.reverse();
    Ids::Many(l)
}

fn ids_to_json(ids: Ids) -> Json {
    ids_json(&ids)
}

fn attr<'v>(obj: &'v Value, name: &str) -> Option<&'v Value> {
    match obj {
        Value::Object(m) | Value::Map(_, m) => m.get(name),
        _ => None,
    }
}

/// The blocks `name` of a body: a list of objects, or (JSON syntax, where a block type's
/// value may be one object instead of an array of them) a single object.
fn blocks(obj: &Value, name: &str) -> Vec<Value> {
    match attr(obj, name) {
        Some(Value::List(_, vs) | Value::Set(_, vs) | Value::Tuple(vs)) => vs.clone(),
        Some(v @ (Value::Object(_) | Value::Map(..))) => vec![v.clone()],
        _ => Vec::new(),
    }
}

fn principals(block: &Value, name: &str, version: &str) -> Result<Vec<(String, Ids)>, String> {
    let mut out = Vec::new();
    for p in blocks(block, name) {
        let t = string(attr(&p, "type"))?.unwrap_or_default();
        let ids = strings(attr(&p, "identifiers"))?
            .into_iter()
            .map(|s| replace_vars(s, version))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("reading {name}: reading identifiers: {e}"))?;
        out.push((t, decode_list(ids)));
    }
    Ok(out)
}

/// The document of a data source's evaluated arguments (an object whose blocks are lists
/// of objects), or why it cannot be built.
fn configured(args: &Value) -> Result<Doc, String> {
    let version = string(attr(args, "version"))?.unwrap_or_else(|| "2012-10-17".into());
    if version != "2012-10-17" && version != "2008-10-17" {
        return Err(format!(
            "expected version to be one of [\"2008-10-17\" \"2012-10-17\"], got {version}"
        ));
    }
    let mut doc = Doc {
        version: version.clone(),
        id: string(attr(args, "policy_id"))?.unwrap_or_default(),
        statements: Vec::new(),
    };
    let mut sids: Vec<String> = Vec::new();
    for st in blocks(args, "statement") {
        let effect = string(attr(&st, "effect"))?.unwrap_or_else(|| "Allow".into());
        if effect != "Allow" && effect != "Deny" {
            return Err(format!(
                "expected statement effect to be one of [\"Allow\" \"Deny\"], got {effect}"
            ));
        }
        let sid = string(attr(&st, "sid"))?.unwrap_or_default();
        if !sid.is_empty() {
            if sids.contains(&sid) {
                return Err(format!(
                    "writing IAM Policy Document: duplicate Sid ({sid}). Remove the Sid or \
                     ensure the Sid is unique."
                ));
            }
            if !sid.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(format!(
                    "invalid value for statement sid ({sid}): must only include alphanumeric \
                     characters"
                ));
            }
            sids.push(sid.clone());
        }
        let mut s = Statement {
            sid,
            effect,
            ..Statement::default()
        };
        let plain = |name: &str| -> Result<Option<Json>, String> {
            let l = strings(attr(&st, name))?;
            Ok((!l.is_empty()).then(|| ids_to_json(decode_list(l))))
        };
        s.actions = plain("actions")?;
        s.not_actions = plain("not_actions")?;
        for (name, slot) in [
            ("resources", &mut s.resources),
            ("not_resources", &mut s.not_resources),
        ] {
            let l = strings(attr(&st, name))?
                .into_iter()
                .map(|x| replace_vars(x, &version))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("reading {name}: {e}"))?;
            if !l.is_empty() {
                *slot = Some(ids_to_json(decode_list(l)));
            }
        }
        s.principals = principals(&st, "principals", &version)?;
        s.not_principals = principals(&st, "not_principals", &version)?;
        for c in blocks(&st, "condition") {
            let test = string(attr(&c, "test"))?.unwrap_or_default();
            let variable = string(attr(&c, "variable"))?.unwrap_or_default();
            let values = strings(attr(&c, "values"))?
                .into_iter()
                .map(|x| replace_vars(x, &version))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("reading condition: reading values: {e}"))?;
            let values = if values.len() == 1 {
                Ids::One(values.into_iter().next().unwrap_or_default())
            } else {
                Ids::Many(values)
            };
            s.conditions.push((test, variable, values));
        }
        doc.statements.push(s);
    }
    Ok(doc)
}

/// A policy document given as JSON (`source_policy_documents`, ...), read as the
/// provider's model reads it.
fn parse_doc(text: &str) -> Result<Doc, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let obj = v.as_object().ok_or("a policy document is a JSON object")?;
    let text_of = |k: &str| {
        obj.get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let mut doc = Doc {
        version: text_of("Version"),
        id: text_of("Id"),
        statements: Vec::new(),
    };
    if let Some(list) = obj.get("Statement") {
        let list = list
            .as_array()
            .ok_or("json: cannot unmarshal object into Go struct field iamPolicyDoc.Statement of type []*iam.iamPolicyStatement")?;
        for st in list {
            let st = st.as_object().ok_or("a statement is a JSON object")?;
            let text = |k: &str| st.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
            let raw = |k: &str| st.get(k).map(json_of);
            let mut s = Statement {
                sid: text("Sid"),
                effect: text("Effect"),
                actions: raw("Action"),
                not_actions: raw("NotAction"),
                resources: raw("Resource"),
                not_resources: raw("NotResource"),
                ..Statement::default()
            };
            s.principals = parse_principals(st.get("Principal"))?;
            s.not_principals = parse_principals(st.get("NotPrincipal"))?;
            if let Some(serde_json::Value::Object(tests)) = st.get("Condition") {
                for (test, vars) in tests {
                    let Some(vars) = vars.as_object() else {
                        return Err("a condition is a JSON object".into());
                    };
                    for (var, values) in vars {
                        let values = match values {
                            serde_json::Value::String(s) => Ids::Many(vec![s.clone()]),
                            serde_json::Value::Bool(b) => Ids::One(b.to_string()),
                            serde_json::Value::Array(a) => Ids::Many(
                                a.iter()
                                    .map(|v| v.as_str().unwrap_or_default().to_string())
                                    .collect(),
                            ),
                            _ => continue,
                        };
                        s.conditions.push((test.clone(), var.clone(), values));
                    }
                }
            }
            doc.statements.push(s);
        }
    }
    Ok(doc)
}

fn parse_principals(v: Option<&serde_json::Value>) -> Result<Vec<(String, Ids)>, String> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(Vec::new()),
        Some(serde_json::Value::String(_)) => {
            Ok(vec![("*".to_string(), Ids::Many(vec!["*".to_string()]))])
        }
        Some(serde_json::Value::Object(m)) => {
            let mut out = Vec::new();
            for (k, v) in m {
                match v {
                    serde_json::Value::String(s) => out.push((k.clone(), Ids::One(s.clone()))),
                    serde_json::Value::Array(a) => {
                        let mut values = Vec::new();
                        for (i, e) in a.iter().enumerate() {
                            let s = e.as_str().ok_or_else(|| {
                                format!(
                                    "Unsupported element type for \
                                     IAMPolicyStatementPrincipalSet.Identifiers[{i}] (principal \
                                     type \"{k}\"): must be string"
                                )
                            })?;
                            values.push(s.to_string());
                        }
                        values.sort();
                        out.push((k.clone(), Ids::Many(values)));
                    }
                    _ => {
                        return Err(
                            "Unsupported data type for IAMPolicyStatementPrincipalSet.Identifiers"
                                .into(),
                        )
                    }
                }
            }
            Ok(out)
        }
        Some(_) => Err("Unsupported data type for IAMPolicyStatementPrincipalSet".into()),
    }
}

/// A decoded JSON value written back as Go writes an `interface{}`: objects sorted.
fn json_of(v: &serde_json::Value) -> Json {
    match v {
        serde_json::Value::Null => Json::Null,
        serde_json::Value::Bool(b) => Json::Bool(*b),
        serde_json::Value::Number(n) => Json::Number(n.to_string()),
        serde_json::Value::String(s) => Json::String(s.clone()),
        serde_json::Value::Array(a) => Json::Array(a.iter().map(json_of).collect()),
        serde_json::Value::Object(m) => {
            Json::Object(m.iter().map(|(k, v)| (k.clone(), json_of(v))).collect())
        }
    }
}

/// The computed attributes (`json`, `minified_json`, `id`) of an `aws_iam_policy_document`
/// whose arguments (`args`, blocks as lists of objects) are wholly known; the error is the
/// provider's.
pub fn evaluate(args: &Value) -> Result<BTreeMap<String, Value>, String> {
    let mut merged = Doc::default();
    let mut sids: Vec<String> = Vec::new();
    let docs = |name: &str| strings(attr(args, name));
    for (i, text) in docs("source_policy_documents")?.iter().enumerate() {
        let doc = parse_doc(text).map_err(|e| {
            format!("writing IAM Policy Document: merging source document {i}: {e}")
        })?;
        for (j, st) in doc.statements.iter().enumerate() {
            if st.sid.is_empty() {
                continue;
            }
            if sids.contains(&st.sid) {
                return Err(format!(
                    "writing IAM Policy Document: merging source document {i}: duplicate Sid \
                     ({}) in source_policy_documents (statement {j}). Remove the Sid or ensure \
                     Sids are unique.",
                    st.sid
                ));
            }
            sids.push(st.sid.clone());
        }
        merged.merge(doc);
    }
    merged.merge(configured(args)?);
    for (i, text) in docs("override_policy_documents")?.iter().enumerate() {
        let doc = parse_doc(text).map_err(|e| {
            format!("writing IAM Policy Document: merging override document {i}: {e}")
        })?;
        merged.merge(doc);
    }
    let json = merged.to_json();
    let indented = json.indented();
    let id = crc32fast::hash(indented.as_bytes()).to_string();
    let mut out = BTreeMap::new();
    out.insert("minified_json".to_string(), Value::string(json.compact()));
    out.insert("json".to_string(), Value::string(indented));
    out.insert("id".to_string(), Value::string(id));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::string(x)
    }

    fn list(xs: &[&str]) -> Value {
        Value::Tuple(xs.iter().map(|x| s(x)).collect())
    }

    #[test]
    fn a_statement_is_written_as_the_provider_writes_it() {
        let st = Value::object_from([
            ("actions", list(&["s3:GetObject", "s3:ListBucket"])),
            ("resources", list(&["arn:aws:s3:::b/&{aws:username}"])),
            (
                "principals",
                Value::Tuple(vec![Value::object_from([
                    ("type", s("AWS")),
                    ("identifiers", list(&["arn:aws:iam::1:root"])),
                ])]),
            ),
            (
                "condition",
                Value::Tuple(vec![Value::object_from([
                    ("test", s("Bool")),
                    ("variable", s("aws:SecureTransport")),
                    ("values", list(&["true"])),
                ])]),
            ),
        ]);
        let args = Value::object_from([("statement", Value::Tuple(vec![st]))]);
        let out = evaluate(&args).unwrap();
        assert_eq!(
            out["minified_json"],
            s(
                r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:ListBucket","s3:GetObject"],"Resource":"arn:aws:s3:::b/${aws:username}","Principal":{"AWS":"arn:aws:iam::1:root"},"Condition":{"Bool":{"aws:SecureTransport":"true"}}}]}"#
            )
        );
    }

    /// In the JSON syntax a block type's value may be one object, not an array of them:
    /// `"statement": {"principals": {...}, "condition": {...}}` is one statement.
    #[test]
    fn json_syntax_single_object_blocks_are_one_block_each() {
        let block = |pairs: Vec<(&str, Value)>| Value::object_from(pairs);
        let st = block(vec![
            ("effect", s("Deny")),
            ("actions", list(&["s3:*"])),
            ("resources", list(&["*"])),
            (
                "principals",
                block(vec![("type", s("*")), ("identifiers", list(&["*"]))]),
            ),
            (
                "condition",
                block(vec![
                    ("test", s("Bool")),
                    ("variable", s("aws:SecureTransport")),
                    ("values", list(&["false"])),
                ]),
            ),
        ]);
        let one = evaluate(&Value::object_from([("statement", st.clone())])).unwrap();
        let listed =
            evaluate(&Value::object_from([("statement", Value::Tuple(vec![st]))])).unwrap();
        assert_eq!(one["minified_json"], listed["minified_json"]);
        assert_eq!(
            one["minified_json"],
            s(
                r#"{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"s3:*","Resource":"*","Principal":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}"#
            )
        );
    }

    #[test]
    fn a_star_principal_is_a_star() {
        let st = Value::object_from([(
            "principals",
            Value::Tuple(vec![Value::object_from([
                ("type", s("*")),
                ("identifiers", list(&["*"])),
            ])]),
        )]);
        let args = Value::object_from([("statement", Value::Tuple(vec![st]))]);
        let out = evaluate(&args).unwrap();
        assert_eq!(
            out["minified_json"],
            s(r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*"}]}"#)
        );
    }
}
