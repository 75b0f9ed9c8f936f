//! Date and time functions, as Terraform 1.5 defines them: `formatdate` and `timeadd`
//! (cty's stdlib `datetime.go`) and `timecmp` (Terraform's `funcs/datetime.go`).
//! `timestamp` and `plantimestamp` are impure and not provided.
//!
//! Timestamps are parsed exactly as Go's `time.Parse(time.RFC3339, s)` does (Go 1.20):
//! a one- or two-digit hour is accepted, a fraction of a second with `.` or `,` is
//! accepted (and truncated to nanoseconds), UTC offsets up to `+24:60` are accepted, and
//! errors carry Go's layout/value elements. `formatdate` and `timecmp` turn those errors
//! into cty's friendlier wording ("not a valid RFC3339 timestamp: ..."); `timeadd` reports
//! Go's own text (`parsing time "..." as "2006-01-02T15:04:05Z07:00": ...`) as cty does.
//! Durations follow Go's `time.ParseDuration` (`1h30m`, `-10s`, `1.5h`, units `ns`, `us`,
//! `µs`, `μs`, `ms`, `s`, `m`, `h`). Results are written as Go's `Format(time.RFC3339)`:
//! whole seconds, `Z` for a zero offset, otherwise the offset of the input timestamp.
//!
//! The Go time parser is also used by `yamldecode` (YAML timestamps), hence the
//! crate-visible helpers.

use super::conversion::str_arg;
use super::{FuncError, Function, FunctionTable, Param};
use crate::gocompat::time::*;
use crate::number::Number;
use crate::types::{go_quote, Type};
use crate::value::Value;

pub fn register(t: &mut FunctionTable) {
    t.add(Function::new(
        "formatdate",
        vec![
            Param::new("format", Type::String),
            Param::new("time", Type::String),
        ],
        Type::String,
        formatdate,
    ));
    t.add(Function::new(
        "timeadd",
        vec![
            Param::new("timestamp", Type::String),
            Param::new("duration", Type::String),
        ],
        Type::String,
        timeadd,
    ));
    t.add(Function::new(
        "timecmp",
        vec![
            Param::new("timestamp_a", Type::String),
            Param::new("timestamp_b", Type::String),
        ],
        Type::Number,
        timecmp,
    ));
}

fn formatdate(args: &[Value]) -> Result<Value, FuncError> {
    let format = str_arg(args, 0)?;
    let t = parse_timestamp(str_arg(args, 1)?).map_err(|e| FuncError::arg(1, e))?;
    format_date(format, &t)
        .map(Value::String)
        .map_err(|e| FuncError::arg(0, e))
}

fn timeadd(args: &[Value]) -> Result<Value, FuncError> {
    let ts = str_arg(args, 0)?;
    let t = parse_rfc3339(ts).map_err(|e| FuncError::new(e.go_error()))?;
    let d = parse_duration(str_arg(args, 1)?).map_err(FuncError::new)?;
    let t = GoTime {
        unix_nanos: t.unix_nanos + i128::from(d),
        offset: t.offset,
    };
    Ok(Value::String(t.format_rfc3339()))
}

fn timecmp(args: &[Value]) -> Result<Value, FuncError> {
    let a = parse_timestamp(str_arg(args, 0)?).map_err(|e| FuncError::arg(0, e))?;
    let b = parse_timestamp(str_arg(args, 1)?).map_err(|e| FuncError::arg(1, e))?;
    let r = match a.unix_nanos.cmp(&b.unix_nanos) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    };
    Ok(Value::Number(Number::from_i64(r)))
}

/// cty's `parseTimestamp`: RFC 3339 with friendly errors.
fn parse_timestamp(s: &str) -> Result<GoTime, String> {
    parse_rfc3339(s).map_err(|e| e.friendly())
}

// ---------------------------------------------------------------------------------------
// formatdate.

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

fn starts_verb(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

/// cty's `splitDateFormat` over the whole input: quoted literals (with `''` escapes),
/// runs of one repeated letter (verbs), and other literal text.
fn split_date_format(data: &[u8]) -> Vec<&[u8]> {
    const ESC: u8 = b'\'';
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(&first) = rest.first() {
        let n = if first == ESC {
            if rest.get(1) == Some(&ESC) {
                2
            } else {
                let mut end = rest.len();
                let mut i = 1;
                while i < rest.len() {
                    if rest.get(i) == Some(&ESC) {
                        if i + 1 == rest.len() {
                            end = rest.len();
                            break;
                        }
                        if rest.get(i + 1) == Some(&ESC) {
                            i += 2;
                            continue;
                        }
                        end = i + 1;
                        break;
                    }
                    i += 1;
                }
                end
            }
        } else if starts_verb(first) {
            rest.iter().position(|&c| c != first).unwrap_or(rest.len())
        } else {
            rest.iter()
                .skip(1)
                .position(|&c| c == ESC || starts_verb(c))
                .map_or(rest.len(), |p| p + 1)
        };
        let (tok, tail) = rest.split_at(n.max(1).min(rest.len()));
        out.push(tok);
        rest = tail;
    }
    out
}

fn format_date(format: &str, t: &GoTime) -> Result<String, String> {
    const ESC: u8 = b'\'';
    let c = t.civil();
    let mut buf: Vec<u8> = Vec::with_capacity(format.len() + 16);
    for tok in split_date_format(format.as_bytes()) {
        let first = tok.first().copied().unwrap_or(0);
        let verb = || go_quote(&String::from_utf8_lossy(tok));
        let len = tok.len();
        if first == ESC {
            if tok.last() != Some(&ESC) || len == 1 {
                return Err("unterminated literal '".to_string());
            }
            if len == 2 {
                buf.push(ESC);
            } else {
                let raw = tok.get(1..len - 1).unwrap_or_default();
                let mut i = 0;
                while let Some(&b) = raw.get(i) {
                    buf.push(b);
                    if b == ESC {
                        i += 1;
                    }
                    i += 1;
                }
            }
            continue;
        }
        if !starts_verb(first) {
            buf.extend_from_slice(tok);
            continue;
        }
        let text = match (first, len) {
            (b'Y', 2) => format!("{:02}", c.year % 100),
            (b'Y', 4) => format!("{:04}", c.year),
            (b'Y', _) => {
                return Err(format!(
                    "invalid date format verb {}: year must either be \"YY\" or \"YYYY\"",
                    verb()
                ))
            }
            (b'M', 1) => c.month.to_string(),
            (b'M', 2) => format!("{:02}", c.month),
            (b'M', 3) => month_name(c.month).chars().take(3).collect(),
            (b'M', 4) => month_name(c.month).to_string(),
            (b'M', _) => {
                return Err(format!(
                "invalid date format verb {}: month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"",
                verb()
            ))
            }
            (b'D', 1) => c.day.to_string(),
            (b'D', 2) => format!("{:02}", c.day),
            (b'D', _) => {
                return Err(format!(
                    "invalid date format verb {}: day of month must either be \"D\" or \"DD\"",
                    verb()
                ))
            }
            (b'E', 3) => weekday_name(c.weekday).chars().take(3).collect(),
            (b'E', 4) => weekday_name(c.weekday).to_string(),
            (b'E', _) => {
                return Err(format!(
                    "invalid date format verb {}: day of week must either be \"EEE\" or \"EEEE\"",
                    verb()
                ))
            }
            (b'h', 1) => c.hour.to_string(),
            (b'h', 2) => format!("{:02}", c.hour),
            (b'h', _) => {
                return Err(format!(
                    "invalid date format verb {}: 24-hour must either be \"h\" or \"hh\"",
                    verb()
                ))
            }
            (b'H', 1) => hour12(c.hour).to_string(),
            (b'H', 2) => format!("{:02}", hour12(c.hour)),
            (b'H', _) => {
                return Err(format!(
                    "invalid date format verb {}: 12-hour must either be \"H\" or \"HH\"",
                    verb()
                ))
            }
            (b'A' | b'a', 2) => {
                let pm = c.hour / 12 == 1;
                match (first == b'A', pm) {
                    (true, false) => "AM".into(),
                    (true, true) => "PM".into(),
                    (false, false) => "am".into(),
                    (false, true) => "pm".into(),
                }
            }
            (b'A' | b'a', _) => {
                let l = char::from(first);
                return Err(format!(
                    "invalid date format verb {}: must be \"{l}{l}\"",
                    verb()
                ));
            }
            (b'm', 1) => c.minute.to_string(),
            (b'm', 2) => format!("{:02}", c.minute),
            (b'm', _) => {
                return Err(format!(
                    "invalid date format verb {}: minute must either be \"m\" or \"mm\"",
                    verb()
                ))
            }
            (b's', 1) => c.second.to_string(),
            (b's', 2) => format!("{:02}", c.second),
            (b's', _) => {
                return Err(format!(
                    "invalid date format verb {}: second must either be \"s\" or \"ss\"",
                    verb()
                ))
            }
            (b'Z', 1) => t.format_zone(ZoneStyle::Iso8601Colon),
            (b'Z', 3) => {
                let z = t.format_zone(ZoneStyle::Num);
                if z == "+0000" {
                    "UTC".into()
                } else {
                    z
                }
            }
            (b'Z', 4) => t.format_zone(ZoneStyle::Num),
            (b'Z', 5) => t.format_zone(ZoneStyle::NumColon),
            (b'Z', _) => {
                return Err(format!(
                    "invalid date format verb {}: timezone must be Z, ZZZZ, or ZZZZZ",
                    verb()
                ))
            }
            _ => return Err(format!("invalid date format verb {}", verb())),
        };
        buf.extend_from_slice(text.as_bytes());
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

fn month_name(m: i64) -> &'static str {
    usize::try_from(m - 1)
        .ok()
        .and_then(|i| MONTHS.get(i))
        .copied()
        .unwrap_or("%!Month")
}

fn weekday_name(d: i64) -> &'static str {
    usize::try_from(d)
        .ok()
        .and_then(|i| WEEKDAYS.get(i))
        .copied()
        .unwrap_or("%!Weekday")
}

fn hour12(h: i64) -> i64 {
    match h % 12 {
        0 => 12,
        x => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(format: &str, ts: &str) -> Result<String, String> {
        let t = parse_timestamp(ts)?;
        format_date(format, &t)
    }

    const TS: &str = "2006-01-02T15:04:05Z";

    #[test]
    fn formatdate_cty_cases() {
        let ok = [
            ("", ""),
            ("YYYY-MM-DD", "2006-01-02"),
            ("EEE, MMM D ''YY", "Mon, Jan 2 '06"),
            ("hh:mm:ss", "15:04:05"),
            ("H 'o''clock' AA", "3 o'clock PM"),
            ("H 'o''clock'", "3 o'clock"),
            ("hh:mm:ssZZZZ", "15:04:05+0000"),
            ("hh:mm:ssZZZZZ", "15:04:05+00:00"),
            ("MMMM", "January"),
            ("EEEE", "Monday"),
            ("aa", "pm"),
            ("YYYY-MM-DD'T'hh:mm:ssZ", "2006-01-02T15:04:05Z"),
            ("DD MMM YYYY hh:mm ZZZ", "02 Jan 2006 15:04 UTC"),
            (
                "EEEE, DD-MMM-YY hh:mm:ss ZZZ",
                "Monday, 02-Jan-06 15:04:05 UTC",
            ),
            (
                "EEE, DD MMM YYYY hh:mm:ss ZZZ",
                "Mon, 02 Jan 2006 15:04:05 UTC",
            ),
            ("M/D/YY h:m:s", "1/2/06 15:4:5"),
        ];
        for (f, want) in ok {
            assert_eq!(fmt(f, TS).unwrap(), want, "{f}");
        }
        let errs = [
            (
                "Y",
                "invalid date format verb \"Y\": year must either be \"YY\" or \"YYYY\"",
            ),
            (
                "YYYYY",
                "invalid date format verb \"YYYYY\": year must either be \"YY\" or \"YYYY\"",
            ),
            ("A", "invalid date format verb \"A\": must be \"AA\""),
            ("a", "invalid date format verb \"a\": must be \"aa\""),
            ("'blah blah", "unterminated literal '"),
            ("'", "unterminated literal '"),
            (
                "ZZ",
                "invalid date format verb \"ZZ\": timezone must be Z, ZZZZ, or ZZZZZ",
            ),
            ("q", "invalid date format verb \"q\""),
        ];
        for (f, want) in errs {
            assert_eq!(fmt(f, TS).unwrap_err(), want, "{f}");
        }
    }

    #[test]
    fn formatdate_offsets() {
        assert_eq!(
            fmt("hh:mm Z ZZZ ZZZZ ZZZZZ", "2018-01-04T23:12:01-08:00").unwrap(),
            "23:12 -08:00 -0800 -0800 -08:00"
        );
        assert_eq!(
            fmt("YYYY-MM-DD hh:mm Z", "2018-01-04T23:12:01+05:30").unwrap(),
            "2018-01-04 23:12 +05:30"
        );
        assert_eq!(fmt("EEEE", "2000-02-29T00:00:00Z").unwrap(), "Tuesday");
        assert_eq!(fmt("H AA", "2000-02-29T00:00:00Z").unwrap(), "12 AM");
        assert_eq!(fmt("H aa", "2000-02-29T12:00:00Z").unwrap(), "12 pm");
    }

    #[test]
    fn timestamp_parse_errors() {
        let cases = [
            ("", "not a valid RFC3339 timestamp: end of string before year"),
            ("2017-01-02", "not a valid RFC3339 timestamp: missing required time introducer 'T'"),
            ("2017-12-02t00:00:00Z", "not a valid RFC3339 timestamp: missing required time introducer 'T'"),
            ("2017:01:02", "not a valid RFC3339 timestamp: found \":01:02\" where \"-\" is expected"),
            ("2017", "not a valid RFC3339 timestamp: end of string where \"-\" is expected"),
            ("2017-01-02T", "not a valid RFC3339 timestamp: end of string before hour"),
            ("2017-01-02T00", "not a valid RFC3339 timestamp: end of string where \":\" is expected"),
            ("2017-01-02T00:00:00", "not a valid RFC3339 timestamp: end of string before UTC offset"),
            ("2017-01-02T26:00:00Z", "not a valid RFC3339 timestamp: cannot use \":00:00Z\" as hour"),
            ("2017-13-02T00:00:00Z", "not a valid RFC3339 timestamp: cannot use \"-02T00:00:00Z\" as month"),
            ("2017-02-31T00:00:00Z", "not a valid RFC3339 timestamp: day out of range"),
            (
                "\"2017-12-02T00:00:00Z\"",
                "not a valid RFC3339 timestamp: cannot use \"\\\"2017-12-02T00:00:00Z\\\"\" as year",
            ),
            ("2-12-02T00:00:00Z", "not a valid RFC3339 timestamp: cannot use \"2-12-02T00:00:00Z\" as year"),
            ("bloop", "not a valid RFC3339 timestamp: cannot use \"bloop\" as year"),
            ("2017-11-22 00:00:00Z", "not a valid RFC3339 timestamp: missing required time introducer 'T'"),
            ("2017-11-22T00:00:00Zjunk", "not a valid RFC3339 timestamp: cannot use \"junk\" as timestamp segment"),
            ("2017-11-22T00:00:00+0100", "not a valid RFC3339 timestamp: cannot use \"+0100\" as UTC offset"),
            ("2017-11-22T00:60:00Z", "not a valid RFC3339 timestamp: cannot use \":00Z\" as minute"),
        ];
        for (ts, want) in cases {
            assert_eq!(parse_timestamp(ts).unwrap_err(), want, "{ts:?}");
        }
    }

    #[test]
    fn timestamp_parse_leniency() {
        // One-digit hours, fractions with a comma, offsets up to 24 hours.
        assert!(parse_timestamp("2017-11-22T1:00:00Z").is_ok());
        let t = parse_timestamp("2017-11-22T00:00:00,5Z").unwrap();
        assert_eq!(t.unix_nanos % NANOS_PER_SEC, 500_000_000);
        assert!(parse_timestamp("2017-11-22T00:00:00+24:00").is_ok());
        assert!(parse_timestamp("2016-02-29T00:00:00Z").is_ok());
        assert!(parse_timestamp("2000-02-29T00:00:00Z").is_ok());
        assert!(parse_timestamp("1900-02-29T00:00:00Z").is_err());
    }

    #[test]
    fn timeadd_results() {
        let add = |ts: &str, d: &str| -> Result<String, String> {
            let t = parse_rfc3339(ts).map_err(|e| e.go_error())?;
            let d = parse_duration(d)?;
            Ok(GoTime {
                unix_nanos: t.unix_nanos + i128::from(d),
                offset: t.offset,
            }
            .format_rfc3339())
        };
        assert_eq!(
            add("2017-11-22T00:00:00Z", "1s").unwrap(),
            "2017-11-22T00:00:01Z"
        );
        assert_eq!(
            add("2017-11-22T00:00:00Z", "10m1s").unwrap(),
            "2017-11-22T00:10:01Z"
        );
        assert_eq!(
            add("2017-11-22T00:00:00Z", "-1h").unwrap(),
            "2017-11-21T23:00:00Z"
        );
        assert_eq!(
            add("2017-11-22T00:00:00Z", "1.5h").unwrap(),
            "2017-11-22T01:30:00Z"
        );
        assert_eq!(
            add("2017-11-22T00:00:00+01:00", "24h").unwrap(),
            "2017-11-23T00:00:00+01:00"
        );
        assert_eq!(
            add("2017-11-22T00:00:00+00:00", "0").unwrap(),
            "2017-11-22T00:00:00Z"
        );
        assert_eq!(
            add("2017-11-22T00:00:00.9Z", "200ms").unwrap(),
            "2017-11-22T00:00:01Z"
        );
        assert_eq!(
            add("2000-02-28T23:00:00Z", "1h").unwrap(),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(
            add("0001-01-01T00:00:00Z", "-1h").unwrap(),
            "0000-12-31T23:00:00Z"
        );
        assert_eq!(
            add("2017-11-22", "1h").unwrap_err(),
            "parsing time \"2017-11-22\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"T\""
        );
        assert_eq!(
            add("2017-13-22T00:00:00Z", "1h").unwrap_err(),
            "parsing time \"2017-13-22T00:00:00Z\": month out of range"
        );
        assert_eq!(
            add("2017-11-22T00:00:00Z", "1d").unwrap_err(),
            "time: unknown unit \"d\" in duration \"1d\""
        );
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1h30m").unwrap(), 5_400_000_000_000);
        assert_eq!(parse_duration("-10s").unwrap(), -10_000_000_000);
        assert_eq!(parse_duration("+.5s").unwrap(), 500_000_000);
        assert_eq!(parse_duration("1\u{b5}s").unwrap(), 1000);
        assert_eq!(parse_duration("1\u{3bc}s").unwrap(), 1000);
        assert_eq!(parse_duration("1.0000000001s").unwrap(), 1_000_000_000);
        assert_eq!(parse_duration("-9223372036854775808ns").unwrap(), i64::MIN);
        assert_eq!(parse_duration("0").unwrap(), 0);
        assert_eq!(
            parse_duration("").unwrap_err(),
            "time: invalid duration \"\""
        );
        assert_eq!(
            parse_duration("1").unwrap_err(),
            "time: missing unit in duration \"1\""
        );
        assert_eq!(
            parse_duration(".s").unwrap_err(),
            "time: invalid duration \".s\""
        );
        assert_eq!(
            parse_duration("9223372036854775808ns").unwrap_err(),
            "time: invalid duration \"9223372036854775808ns\""
        );
        assert_eq!(
            parse_duration("3\u{b5}x").unwrap_err(),
            "time: unknown unit \"\\xc2\\xb5x\" in duration \"3\\xc2\\xb5x\""
        );
    }

    #[test]
    fn yaml_timestamps() {
        assert_eq!(
            parse_yaml_timestamp("2006-1-2").unwrap(),
            "2006-01-02T00:00:00Z"
        );
        assert_eq!(
            parse_yaml_timestamp("2001-12-14t21:59:43.10-05:00").unwrap(),
            "2001-12-14T21:59:43-05:00"
        );
        assert_eq!(
            parse_yaml_timestamp("2001-12-14 21:59:43.10").unwrap(),
            "2001-12-14T21:59:43Z"
        );
        assert!(parse_yaml_timestamp("2001-12-14 21:59:43.10 -5").is_none());
        assert!(parse_yaml_timestamp("12-14").is_none());
    }

    #[test]
    fn calendar_round_trip() {
        for days in [-800_000i64, -1, 0, 1, 11_016, 20_000, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
    }
}
