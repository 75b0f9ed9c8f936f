//! Go's `encoding/csv` `Reader` with its defaults (comma `,`, no comments, `FieldsPerRecord`
//! 0: every record has as many fields as the first), as cty's `csvdecode` uses it:
//! RFC 4180 quoting, `""` escapes, quoted fields spanning lines, `\r\n` normalised to `\n`,
//! empty lines skipped, and Go's `ParseError` texts and line numbers.
//!
//! Why not the `csv` crate: it is lenient where Go is strict (a bare `"` in an unquoted
//! field or text after a closing quote is accepted) and its errors carry neither Go's texts
//! nor Go's line numbers, which `csvdecode` reports
//! (`CSV parse error on line 2: bare " in non-quoted-field`).

pub(crate) const ERR_BARE_QUOTE: &str = "bare \" in non-quoted-field";
pub(crate) const ERR_QUOTE: &str = "extraneous or missing \" in quoted-field";
pub(crate) const ERR_FIELD_COUNT: &str = "wrong number of fields";

pub(crate) enum CsvError {
    Eof,
    Parse { line: usize, err: &'static str },
}

pub(crate) struct CsvReader<'a> {
    data: &'a [u8],
    pos: usize,
    num_line: usize,
    fields_per_record: usize,
}

fn length_nl(b: &[u8]) -> usize {
    usize::from(b.last() == Some(&b'\n'))
}

impl<'a> CsvReader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        CsvReader {
            data,
            pos: 0,
            num_line: 0,
            fields_per_record: 0,
        }
    }

    /// One line including its `\n` (normalised from `\r\n`); None at the end of input.
    fn read_line(&mut self) -> Option<Vec<u8>> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        if rest.is_empty() {
            return None;
        }
        let len = rest
            .iter()
            .position(|&c| c == b'\n')
            .map_or(rest.len(), |i| i + 1);
        let mut line = rest.get(..len).unwrap_or_default().to_vec();
        self.pos += len;
        if line.last() != Some(&b'\n') && line.last() == Some(&b'\r') {
            line.pop();
        }
        self.num_line += 1;
        let n = line.len();
        if n >= 2 && line.get(n - 2) == Some(&b'\r') && line.get(n - 1) == Some(&b'\n') {
            line.truncate(n - 2);
            line.push(b'\n');
        }
        Some(line)
    }

    pub(crate) fn read_record(&mut self) -> Result<Vec<String>, CsvError> {
        let mut line = loop {
            match self.read_line() {
                None => return Err(CsvError::Eof),
                Some(l) if l.len() == length_nl(&l) => continue,
                Some(l) => break l,
            }
        };
        let rec_line = self.num_line;
        let mut buffer: Vec<u8> = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        let mut pos_line = self.num_line;
        let mut err: Option<CsvError> = None;
        let mut off = 0usize;
        'fields: loop {
            let cur = line.get(off..).unwrap_or_default();
            if cur.first() != Some(&b'"') {
                // A non-quoted field.
                let comma = cur.iter().position(|&c| c == b',');
                let field = match comma {
                    Some(i) => cur.get(..i).unwrap_or_default(),
                    None => cur.get(..cur.len() - length_nl(cur)).unwrap_or_default(),
                };
                if field.contains(&b'"') {
                    err = Some(CsvError::Parse {
                        line: self.num_line,
                        err: ERR_BARE_QUOTE,
                    });
                    break 'fields;
                }
                buffer.extend_from_slice(field);
                ends.push(buffer.len());
                match comma {
                    Some(i) => {
                        off += i + 1;
                        continue 'fields;
                    }
                    None => break 'fields,
                }
            }
            // A quoted field.
            off += 1;
            loop {
                let cur = line.get(off..).unwrap_or_default();
                if let Some(i) = cur.iter().position(|&c| c == b'"') {
                    buffer.extend_from_slice(cur.get(..i).unwrap_or_default());
                    off += i + 1;
                    let after = line.get(off..).unwrap_or_default();
                    match after.first() {
                        Some(b'"') => {
                            buffer.push(b'"');
                            off += 1;
                        }
                        Some(b',') => {
                            off += 1;
                            ends.push(buffer.len());
                            continue 'fields;
                        }
                        _ if length_nl(after) == after.len() => {
                            ends.push(buffer.len());
                            break 'fields;
                        }
                        _ => {
                            err = Some(CsvError::Parse {
                                line: self.num_line,
                                err: ERR_QUOTE,
                            });
                            break 'fields;
                        }
                    }
                } else if !cur.is_empty() {
                    buffer.extend_from_slice(cur);
                    match self.read_line() {
                        Some(l) => {
                            line = l;
                            pos_line += 1;
                        }
                        None => line = Vec::new(),
                    }
                    off = 0;
                } else {
                    err = Some(CsvError::Parse {
                        line: pos_line,
                        err: ERR_QUOTE,
                    });
                    break 'fields;
                }
            }
        }
        let mut fields = Vec::with_capacity(ends.len());
        let mut start = 0;
        for end in ends {
            fields.push(
                String::from_utf8_lossy(buffer.get(start..end).unwrap_or_default()).into_owned(),
            );
            start = end;
        }
        if let Some(e) = err {
            return Err(e);
        }
        if self.fields_per_record > 0 {
            if fields.len() != self.fields_per_record {
                return Err(CsvError::Parse {
                    line: rec_line,
                    err: ERR_FIELD_COUNT,
                });
            }
        } else {
            self.fields_per_record = fields.len();
        }
        Ok(fields)
    }
}
