//! `csvdecode` (cty's stdlib): the header line names the columns, every other line is an
//! object of strings; the reader is Go's `encoding/csv` (`crate::gocompat::csv`).

use std::collections::BTreeMap;

use crate::functions::conversion::str_arg;
use crate::functions::FuncError;
use crate::gocompat::csv::{CsvError, CsvReader};
use crate::gocompat::quote::go_quote;
use crate::types::Type;
use crate::value::Value;

fn csv_error(line: usize, err: &str) -> FuncError {
    FuncError::new(format!("CSV parse error on line {line}: {err}"))
}

pub(super) fn csvdecode(args: &[Value]) -> Result<Value, FuncError> {
    let s = str_arg(args, 0)?;
    let mut r = CsvReader::new(s.as_bytes());
    let headers = match r.read_record() {
        Ok(h) => h,
        Err(CsvError::Eof) => return Err(FuncError::new("missing header line")),
        Err(CsvError::Parse { line, err }) => return Err(csv_error(line, err)),
    };
    let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
    for name in &headers {
        if attrs.insert(name.clone(), Type::String).is_some() {
            return Err(FuncError::new(format!(
                "duplicate column name {}",
                go_quote(name)
            )));
        }
    }
    let mut rows = Vec::new();
    loop {
        match r.read_record() {
            Ok(cols) => {
                let obj: BTreeMap<String, Value> = headers
                    .iter()
                    .cloned()
                    .zip(cols.into_iter().map(Value::String))
                    .collect();
                rows.push(Value::Object(obj));
            }
            Err(CsvError::Eof) => break,
            Err(CsvError::Parse { line, err }) => return Err(csv_error(line, err)),
        }
    }
    Ok(Value::List(Type::Object(attrs), rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_reader_quirks() {
        let t = |s: &str| csvdecode(&[Value::String(s.to_string())]).map_err(|e| e.message);
        assert!(t("a,b\n1,2\r").is_ok());
        assert_eq!(
            t("a\n\"x\"y").unwrap_err(),
            "CSV parse error on line 2: extraneous or missing \" in quoted-field"
        );
        assert_eq!(
            t("\n\nh\n1\n2,3").unwrap_err(),
            "CSV parse error on line 5: wrong number of fields"
        );
    }
}
