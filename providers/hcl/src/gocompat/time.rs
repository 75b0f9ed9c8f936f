//! Go's `time` package, as far as Terraform's time functions and go-cty-yaml show it:
//! `time.Time` with a fixed zone ([`GoTime`]), `time.Parse` for the RFC 3339 layout and the
//! layouts go-cty-yaml tries for timestamps (with `time.ParseError` and its texts),
//! `Format(time.RFC3339)`, and `time.ParseDuration`.
//!
//! Why not chrono/time/humantime: Terraform's messages are Go's own
//! (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`,
//! `time: invalid duration "1"`), and Go's parser accepts and rejects its own set of
//! inputs (`,` as a fractional separator, two-digit-or-one day and hour rules, `µs`/`μs`
//! units, its overflow rules), which the crates' RFC 3339 and duration parsers do not copy.

use crate::gocompat::quote::go_quote;

// ---------------------------------------------------------------------------------------
// Time values and calendar arithmetic.

pub(crate) const NANOS_PER_SEC: i128 = 1_000_000_000;

/// An instant (nanoseconds since the Unix epoch, UTC) and the UTC offset (seconds east)
/// it is shown in, like a Go `time.Time` with a fixed zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GoTime {
    pub unix_nanos: i128,
    pub offset: i64,
}

/// The broken-down local time of a [`GoTime`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Civil {
    pub(crate) year: i64,
    pub(crate) month: i64,
    pub(crate) day: i64,
    pub(crate) hour: i64,
    pub(crate) minute: i64,
    pub(crate) second: i64,
    /// 0 = Sunday.
    pub(crate) weekday: i64,
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number (inverse of [`days_from_civil`]).
pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

pub(crate) fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

pub(crate) fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl GoTime {
    /// Go's `time.Date(...)` with a fixed offset (fields already in range).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_fields(
        year: i64,
        month: i64,
        day: i64,
        hour: i64,
        minute: i64,
        second: i64,
        nanos: i64,
        offset: i64,
    ) -> GoTime {
        let days = days_from_civil(year, month, day);
        let local_secs = i128::from(days) * 86_400
            + i128::from(hour) * 3600
            + i128::from(minute) * 60
            + i128::from(second);
        GoTime {
            unix_nanos: (local_secs - i128::from(offset)) * NANOS_PER_SEC + i128::from(nanos),
            offset,
        }
    }

    pub(crate) fn civil(&self) -> Civil {
        let local = self.unix_nanos.div_euclid(NANOS_PER_SEC) + i128::from(self.offset);
        let days = local.div_euclid(86_400);
        let secs = local.rem_euclid(86_400) as i64;
        let days =
            i64::try_from(days).unwrap_or(if days < 0 { i64::MIN / 2 } else { i64::MAX / 2 });
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: secs / 3600,
            minute: secs % 3600 / 60,
            second: secs % 60,
            weekday: (days + 4).rem_euclid(7),
        }
    }

    /// Go's `Format(time.RFC3339)`.
    pub(crate) fn format_rfc3339(&self) -> String {
        let c = self.civil();
        format!(
            "{}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
            go_append_int(c.year, 4),
            c.month,
            c.day,
            c.hour,
            c.minute,
            c.second,
            self.format_zone(ZoneStyle::Iso8601Colon)
        )
    }

    pub(crate) fn format_zone(&self, style: ZoneStyle) -> String {
        if self.offset == 0 && style == ZoneStyle::Iso8601Colon {
            return "Z".to_string();
        }
        let mut zone = self.offset / 60;
        let sign = if zone < 0 {
            zone = -zone;
            '-'
        } else {
            '+'
        };
        let sep = if style == ZoneStyle::Num { "" } else { ":" };
        format!(
            "{sign}{}{sep}{}",
            go_append_int(zone / 60, 2),
            go_append_int(zone % 60, 2)
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ZoneStyle {
    /// `Z07:00`
    Iso8601Colon,
    /// `-0700`
    Num,
    /// `-07:00`
    NumColon,
}

/// Go's `appendInt(b, x, width)`: a sign, then at least `width` digits.
pub(crate) fn go_append_int(x: i64, width: usize) -> String {
    if x < 0 {
        format!("-{:0width$}", x.unsigned_abs())
    } else {
        format!("{x:0width$}")
    }
}

// ---------------------------------------------------------------------------------------
// Go's time.Parse, for the RFC 3339 layout and the layouts go-cty-yaml uses.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chunk {
    /// Literal text that must match.
    Lit(&'static str),
    /// `2006`
    LongYear,
    /// `1` / `01`
    Month { zero: bool },
    /// `2` / `02`
    Day { zero: bool },
    /// `15`
    Hour,
    /// `4` / `04`
    Minute { zero: bool },
    /// `5` / `05`
    Second { zero: bool },
    /// `.999999999`
    FracSecond9,
    /// `Z07:00`
    Iso8601ColonTz,
}

impl Chunk {
    pub(crate) fn text(self) -> &'static str {
        match self {
            Chunk::Lit(s) => s,
            Chunk::LongYear => "2006",
            Chunk::Month { zero: true } => "01",
            Chunk::Month { zero: false } => "1",
            Chunk::Day { zero: true } => "02",
            Chunk::Day { zero: false } => "2",
            Chunk::Hour => "15",
            Chunk::Minute { zero: true } => "04",
            Chunk::Minute { zero: false } => "4",
            Chunk::Second { zero: true } => "05",
            Chunk::Second { zero: false } => "5",
            Chunk::FracSecond9 => ".999999999",
            Chunk::Iso8601ColonTz => "Z07:00",
        }
    }
}

pub(crate) struct Layout {
    pub(crate) text: &'static str,
    pub(crate) chunks: &'static [Chunk],
}

pub(crate) const RFC3339: Layout = Layout {
    text: "2006-01-02T15:04:05Z07:00",
    chunks: &[
        Chunk::LongYear,
        Chunk::Lit("-"),
        Chunk::Month { zero: true },
        Chunk::Lit("-"),
        Chunk::Day { zero: true },
        Chunk::Lit("T"),
        Chunk::Hour,
        Chunk::Lit(":"),
        Chunk::Minute { zero: true },
        Chunk::Lit(":"),
        Chunk::Second { zero: true },
        Chunk::Iso8601ColonTz,
    ],
};

/// go-cty-yaml's `allowedTimestampFormats`.
pub(crate) const YAML_LAYOUTS: [Layout; 4] = [
    Layout {
        text: "2006-1-2T15:4:5.999999999Z07:00",
        chunks: &[
            Chunk::LongYear,
            Chunk::Lit("-"),
            Chunk::Month { zero: false },
            Chunk::Lit("-"),
            Chunk::Day { zero: false },
            Chunk::Lit("T"),
            Chunk::Hour,
            Chunk::Lit(":"),
            Chunk::Minute { zero: false },
            Chunk::Lit(":"),
            Chunk::Second { zero: false },
            Chunk::FracSecond9,
            Chunk::Iso8601ColonTz,
        ],
    },
    Layout {
        text: "2006-1-2t15:4:5.999999999Z07:00",
        chunks: &[
            Chunk::LongYear,
            Chunk::Lit("-"),
            Chunk::Month { zero: false },
            Chunk::Lit("-"),
            Chunk::Day { zero: false },
            Chunk::Lit("t"),
            Chunk::Hour,
            Chunk::Lit(":"),
            Chunk::Minute { zero: false },
            Chunk::Lit(":"),
            Chunk::Second { zero: false },
            Chunk::FracSecond9,
            Chunk::Iso8601ColonTz,
        ],
    },
    Layout {
        text: "2006-1-2 15:4:5.999999999",
        chunks: &[
            Chunk::LongYear,
            Chunk::Lit("-"),
            Chunk::Month { zero: false },
            Chunk::Lit("-"),
            Chunk::Day { zero: false },
            Chunk::Lit(" "),
            Chunk::Hour,
            Chunk::Lit(":"),
            Chunk::Minute { zero: false },
            Chunk::Lit(":"),
            Chunk::Second { zero: false },
            Chunk::FracSecond9,
        ],
    },
    Layout {
        text: "2006-1-2",
        chunks: &[
            Chunk::LongYear,
            Chunk::Lit("-"),
            Chunk::Month { zero: false },
            Chunk::Lit("-"),
            Chunk::Day { zero: false },
        ],
    },
];

/// Go's `time.ParseError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub(crate) layout: &'static str,
    pub(crate) value: String,
    pub(crate) layout_elem: String,
    pub(crate) value_elem: String,
    pub(crate) message: String,
}

impl ParseError {
    pub(crate) fn new(
        layout: &Layout,
        value: &[u8],
        layout_elem: &str,
        value_elem: &[u8],
        message: String,
    ) -> Self {
        ParseError {
            layout: layout.text,
            value: String::from_utf8_lossy(value).into_owned(),
            layout_elem: layout_elem.to_string(),
            value_elem: String::from_utf8_lossy(value_elem).into_owned(),
            message,
        }
    }

    /// Go's `ParseError.Error()`.
    pub(crate) fn go_error(&self) -> String {
        if self.message.is_empty() {
            format!(
                "parsing time {} as {}: cannot parse {} as {}",
                time_quote(&self.value),
                time_quote(self.layout),
                time_quote(&self.value_elem),
                time_quote(&self.layout_elem)
            )
        } else {
            format!("parsing time {}{}", time_quote(&self.value), self.message)
        }
    }

    /// cty's `parseTimestamp` wording.
    pub(crate) fn friendly(&self) -> String {
        if self.layout_elem.is_empty() && self.value_elem.is_empty() && !self.message.is_empty() {
            return format!("not a valid RFC3339 timestamp{}", self.message);
        }
        let what = match self.layout_elem.as_str() {
            "2006" => "year",
            "01" => "month",
            "02" => "day of month",
            "15" => "hour",
            "04" => "minute",
            "05" => "second",
            "Z07:00" => "UTC offset",
            "T" => {
                return "not a valid RFC3339 timestamp: missing required time introducer 'T'"
                    .to_string()
            }
            ":" | "-" => {
                return if self.value_elem.is_empty() {
                    format!(
                        "not a valid RFC3339 timestamp: end of string where {} is expected",
                        go_quote(&self.layout_elem)
                    )
                } else {
                    format!(
                        "not a valid RFC3339 timestamp: found {} where {} is expected",
                        go_quote(&self.value_elem),
                        go_quote(&self.layout_elem)
                    )
                };
            }
            _ => "timestamp segment",
        };
        if self.value_elem.is_empty() {
            format!("not a valid RFC3339 timestamp: end of string before {what}")
        } else {
            format!(
                "not a valid RFC3339 timestamp: cannot use {} as {what}",
                go_quote(&self.value_elem)
            )
        }
    }
}

/// The `time` package's own `quote`: ASCII as is (with `"` and `\` escaped), every byte of
/// a non-ASCII or control character as `\xNN`.
pub(crate) fn time_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if !c.is_ascii() || c < ' ' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

pub(crate) fn is_digit(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

/// Go's `getnum`: one or two digits (`fixed`: exactly two).
pub(crate) fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let d0 = i64::from(*s.first().filter(|c| c.is_ascii_digit())? - b'0');
    if !is_digit(s, 1) {
        if fixed {
            return None;
        }
        return Some((d0, s.get(1..)?));
    }
    let d1 = i64::from(s.get(1)? - b'0');
    Some((d0 * 10 + d1, s.get(2..)?))
}

/// Go's `atoi` for the year: optional sign, then only digits.
pub(crate) fn atoi(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut x: i64 = 0;
    for &c in digits {
        x = x.checked_mul(10)?.checked_add(i64::from(c - b'0'))?;
    }
    Some(if neg { -x } else { x })
}

pub(crate) fn comma_or_period(c: Option<&u8>) -> bool {
    matches!(c, Some(b'.') | Some(b','))
}

/// Go's `parseNanoseconds(value, nbytes)` (the first byte is the separator).
pub(crate) fn parse_nanoseconds(value: &[u8], nbytes: usize) -> Option<i64> {
    let nbytes = nbytes.min(10);
    let digits = value.get(1..nbytes)?;
    let mut ns = atoi(digits)?;
    for _ in 0..(10 - nbytes) {
        ns *= 10;
    }
    Some(ns)
}

/// Go's `skip(value, prefix)`.
pub(crate) fn skip<'a>(value: &'a [u8], prefix: &str) -> Result<&'a [u8], &'a [u8]> {
    let mut value = value;
    let mut prefix = prefix.as_bytes();
    while let Some(&p) = prefix.first() {
        if p == b' ' {
            if value.first().is_some_and(|&c| c != b' ') {
                return Err(value);
            }
            while prefix.first() == Some(&b' ') {
                prefix = prefix.get(1..).unwrap_or_default();
            }
            while value.first() == Some(&b' ') {
                value = value.get(1..).unwrap_or_default();
            }
            continue;
        }
        if value.first() != Some(&p) {
            return Err(value);
        }
        prefix = prefix.get(1..).unwrap_or_default();
        value = value.get(1..).unwrap_or_default();
    }
    Ok(value)
}

/// Go's `time.parse(layout, value, UTC, Local)` with `Local` = UTC.
pub(crate) fn go_parse(layout: &Layout, input: &str) -> Result<GoTime, ParseError> {
    let avalue = input.as_bytes();
    let mut value = avalue;
    let (mut year, mut month, mut day) = (0i64, -1i64, -1i64);
    let (mut hour, mut min, mut sec, mut nsec) = (0i64, 0i64, 0i64, 0i64);
    let mut zone_offset: Option<i64> = None;
    let chunks = layout.chunks;
    let mut idx = 0;
    while idx < chunks.len() {
        let chunk = chunks.get(idx).copied().unwrap_or(Chunk::Lit(""));
        idx += 1;
        if let Chunk::Lit(prefix) = chunk {
            value = skip(value, prefix)
                .map_err(|v| ParseError::new(layout, avalue, prefix, v, String::new()))?;
            continue;
        }
        let hold = value;
        let mut range_err: Option<&str> = None;
        let mut ok = true;
        match chunk {
            Chunk::Lit(_) => {}
            Chunk::LongYear => {
                if value.len() < 4 || !is_digit(value, 0) {
                    ok = false;
                } else {
                    let (p, rest) = value.split_at(4);
                    value = rest;
                    match atoi(p) {
                        Some(y) => year = y,
                        None => ok = false,
                    }
                }
            }
            Chunk::Month { zero } => match getnum(value, zero) {
                Some((m, rest)) => {
                    month = m;
                    value = rest;
                    if !(1..=12).contains(&m) {
                        range_err = Some("month");
                    }
                }
                None => ok = false,
            },
            Chunk::Day { zero } => match getnum(value, zero) {
                Some((d, rest)) => {
                    day = d;
                    value = rest;
                }
                None => ok = false,
            },
            Chunk::Hour => match getnum(value, false) {
                Some((h, rest)) => {
                    hour = h;
                    value = rest;
                    if h >= 24 {
                        range_err = Some("hour");
                    }
                }
                None => ok = false,
            },
            Chunk::Minute { zero } => match getnum(value, zero) {
                Some((m, rest)) => {
                    min = m;
                    value = rest;
                    if m >= 60 {
                        range_err = Some("minute");
                    }
                }
                None => ok = false,
            },
            Chunk::Second { zero } => match getnum(value, zero) {
                Some((s, rest)) => {
                    sec = s;
                    value = rest;
                    if s >= 60 {
                        range_err = Some("second");
                    } else if value.len() >= 2
                        && comma_or_period(value.first())
                        && is_digit(value, 1)
                        && chunks.get(idx) != Some(&Chunk::FracSecond9)
                    {
                        // A fraction in the value but not in the layout: take it anyway.
                        let mut n = 2;
                        while is_digit(value, n) {
                            n += 1;
                        }
                        match parse_nanoseconds(value, n) {
                            Some(ns) => nsec = ns,
                            None => ok = false,
                        }
                        value = value.get(n..).unwrap_or_default();
                    }
                }
                None => ok = false,
            },
            Chunk::FracSecond9 => {
                if value.len() >= 2 && comma_or_period(value.first()) && is_digit(value, 1) {
                    let mut i = 0;
                    while is_digit(value, i + 1) {
                        i += 1;
                    }
                    match parse_nanoseconds(value, 1 + i) {
                        Some(ns) => nsec = ns,
                        None => ok = false,
                    }
                    value = value.get(1 + i..).unwrap_or_default();
                }
            }
            Chunk::Iso8601ColonTz => {
                if value.first() == Some(&b'Z') {
                    value = value.get(1..).unwrap_or_default();
                    zone_offset = Some(0);
                } else if value.len() < 6 || value.get(3) != Some(&b':') {
                    ok = false;
                } else {
                    let sign = value.first().copied();
                    let hh = value.get(1..3).unwrap_or_default();
                    let mm = value.get(4..6).unwrap_or_default();
                    value = value.get(6..).unwrap_or_default();
                    let hr = getnum(hh, true).map(|x| x.0);
                    let mn = match hr {
                        Some(_) => getnum(mm, true).map(|x| x.0),
                        None => None,
                    };
                    let (h, m) = (hr.unwrap_or(0), mn.unwrap_or(0));
                    if hr.is_none() || mn.is_none() {
                        ok = false;
                    }
                    if h > 24 {
                        range_err = Some("time zone offset hour");
                    }
                    if m > 60 {
                        range_err = Some("time zone offset minute");
                    }
                    let off = (h * 60 + m) * 60;
                    match sign {
                        Some(b'+') => zone_offset = Some(off),
                        Some(b'-') => zone_offset = Some(-off),
                        _ => ok = false,
                    }
                }
            }
        }
        if let Some(what) = range_err {
            return Err(ParseError::new(
                layout,
                avalue,
                chunk.text(),
                value,
                format!(": {what} out of range"),
            ));
        }
        if !ok {
            return Err(ParseError::new(
                layout,
                avalue,
                chunk.text(),
                hold,
                String::new(),
            ));
        }
    }
    if !value.is_empty() {
        let shown = String::from_utf8_lossy(value).into_owned();
        return Err(ParseError::new(
            layout,
            avalue,
            "",
            value,
            format!(": extra text: {}", time_quote(&shown)),
        ));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(ParseError::new(
            layout,
            avalue,
            "",
            value,
            ": day out of range".to_string(),
        ));
    }
    Ok(GoTime::from_fields(
        year,
        month,
        day,
        hour,
        min,
        sec,
        nsec,
        zone_offset.unwrap_or(0),
    ))
}

/// `time.Parse(time.RFC3339, s)`.
pub(crate) fn parse_rfc3339(s: &str) -> Result<GoTime, ParseError> {
    go_parse(&RFC3339, s)
}

/// go-cty-yaml's `parseTimestamp`: a YAML timestamp (four-digit year and `-` first), as
/// the RFC 3339 text cty uses for times.
pub(crate) fn parse_yaml_timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits != 4 || b.get(4) != Some(&b'-') {
        return None;
    }
    YAML_LAYOUTS
        .iter()
        .find_map(|l| go_parse(l, s).ok())
        .map(|t| t.format_rfc3339())
}

// ---------------------------------------------------------------------------------------
// Go's time.ParseDuration.

pub(crate) const UNITS: [(&str, u64); 8] = [
    ("ns", 1),
    ("us", 1_000),
    ("\u{b5}s", 1_000),
    ("\u{3bc}s", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Go's `time.ParseDuration`, in nanoseconds.
pub(crate) fn parse_duration(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", time_quote(orig));
    let mut s = orig.as_bytes();
    let mut d: u64 = 0;
    let mut neg = false;
    if let Some(&c) = s.first() {
        if c == b'-' || c == b'+' {
            neg = c == b'-';
            s = s.get(1..).unwrap_or_default();
        }
    }
    if s == b"0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    pub(crate) const LIMIT: u64 = 1 << 63;
    while !s.is_empty() {
        let c = s.first().copied().unwrap_or(0);
        if !(c == b'.' || c.is_ascii_digit()) {
            return Err(invalid());
        }
        // The integer part.
        let before = s.len();
        let mut v: u64 = 0;
        while let Some(&c) = s.first().filter(|c| c.is_ascii_digit()) {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
            s = s.get(1..).unwrap_or_default();
        }
        let pre = before != s.len();
        // The fraction.
        let mut f: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut post = false;
        if s.first() == Some(&b'.') {
            s = s.get(1..).unwrap_or_default();
            let before = s.len();
            let mut overflow = false;
            while let Some(&c) = s.first().filter(|c| c.is_ascii_digit()) {
                s = s.get(1..).unwrap_or_default();
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = before != s.len();
        }
        if !pre && !post {
            return Err(invalid());
        }
        // The unit.
        let ulen = s
            .iter()
            .position(|&c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if ulen == 0 {
            return Err(format!(
                "time: missing unit in duration {}",
                time_quote(orig)
            ));
        }
        let (u, rest) = s.split_at(ulen);
        s = rest;
        let unit = UNITS
            .iter()
            .find(|(name, _)| name.as_bytes() == u)
            .map(|&(_, n)| n)
            .ok_or_else(|| {
                format!(
                    "time: unknown unit {} in duration {}",
                    time_quote(&String::from_utf8_lossy(u)),
                    time_quote(orig)
                )
            })?;
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v = v.wrapping_add((f as f64 * (unit as f64 / scale)) as u64);
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d = d.wrapping_add(v);
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok((d as i64).wrapping_neg());
    }
    if d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}
