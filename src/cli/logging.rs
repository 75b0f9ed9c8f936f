//! Logs on stderr, never on stdout (reports go there): `--log-format text` prints
//! `warning: ...` / `error: ...` lines for people, `--log-format json` one JSON object per
//! line for log collectors (`{"timestamp", "level", "message", "target", ...fields}`).
//!
//! Everything the CLI tells the user outside a report goes through `tracing`, so both
//! formats carry it. The filter is `error,cloudspec=info` (and cloudspec's other crates), or the `CLOUDSPEC_LOG`
//! environment variable: a level for cloudspec's crates (`debug`), or tracing-subscriber's
//! `EnvFilter` directives added to the default (`aws_smithy_runtime=debug`).

use std::fmt;
use std::sync::OnceLock;

use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::EnvFilter;

/// The filter for a `CLOUDSPEC_LOG` value: a bare level (`debug`) applies to cloudspec's own
/// crates only (the AWS SDK's debug output is not what a user asking for cloudspec's is
/// after); anything else is tracing-subscriber's `EnvFilter` syntax, added to the default
/// filter (`aws_smithy_runtime=debug` adds the SDK's debug output and keeps cloudspec's
/// messages). What a command tells the user in the end ([`say`]) is never filtered out.
fn filter_for(value: &str) -> String {
    let value = value.trim();
    let filter = if value.contains(['=', ',']) {
        format!("{DEFAULT_FILTER},{value}")
    } else {
        [
            "cloudspec",
            "cloudspec_aws",
            "cloudspec_model",
            "cloudspec_hcl",
            "cloudspec_composition",
            "cloudspec_terraform",
        ]
        .iter()
        .fold("error".to_string(), |acc, krate| {
            format!("{acc},{krate}={value}")
        })
    };
    format!("{filter},{SAY}=info")
}

/// Whether logs are JSON lines; set once by [`init`].
static JSON: OnceLock<bool> = OnceLock::new();

/// The default filter: information from cloudspec's own crates, only errors from the
/// libraries below them (the AWS SDK warns about things such as missing optional config
/// files, which are not the user's concern on every scheduled run).
const DEFAULT_FILTER: &str =
    "error,cloudspec=info,cloudspec_aws=info,cloudspec_model=info,cloudspec_hcl=info,cloudspec_composition=info,cloudspec_terraform=info";

/// Installs the global subscriber for `format` (`text` or `json`). A second call changes
/// nothing.
pub(crate) fn init(format: &str) {
    let json = format == "json";
    if JSON.set(json).is_err() {
        return;
    }
    let filter = std::env::var("CLOUDSPEC_LOG")
        .ok()
        .and_then(|v| EnvFilter::try_new(filter_for(&v)).ok())
        .unwrap_or_else(|| EnvFilter::new(DEFAULT_FILTER));
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .with_ansi(false);
    // A subscriber set by an embedding program stays; ours is then simply not installed.
    let _ = if json {
        builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .try_init()
    } else {
        builder.event_format(TextFormat).try_init()
    };
}

/// The target of [`say`]'s events.
const SAY: &str = "cloudspec::say";

/// Tells the user how a command went (`ok: 2 files`, `formatted a.cloudspec`): an info
/// event printed as the bare message in text logs, a JSON object in JSON logs.
pub(crate) fn say(message: &str) {
    tracing::info!(target: SAY, "{message}");
}

/// Whether logs are JSON lines (false before [`init`]).
pub(crate) fn is_json() -> bool {
    JSON.get().copied().unwrap_or(false)
}

/// Prints rendered diagnostics (a spec's errors, with their source excerpts): as they are
/// for text logs, as one error event for JSON logs.
pub(crate) fn diagnostics(file: &str, rendered: &str) {
    if is_json() {
        tracing::error!(file, "{}", rendered.trim_end());
    } else {
        eprint!("{rendered}");
    }
}

/// `LEVEL: message key=value...`, with the level in the words the CLI always used.
struct TextFormat;

impl<S, N> FormatEvent<S, N> for TextFormat
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        // Fields are formatted first, then written with their control characters
        // escaped: a newline or escape code in data can neither forge a log line nor
        // drive the terminal.
        let mut fields = String::new();
        ctx.field_format()
            .format_fields(Writer::new(&mut fields), event)?;
        let fields = crate::text::escape_control(&fields);
        if event.metadata().target() == SAY {
            return writeln!(writer, "{fields}");
        }
        writeln!(
            writer,
            "{}: {}",
            level_word(*event.metadata().level()),
            fields
        )
    }
}

/// `error`, `warning`, `info`, `debug`, `trace`.
fn level_word(level: Level) -> &'static str {
    match level {
        Level::ERROR => "error",
        Level::WARN => "warning",
        Level::INFO => "info",
        Level::DEBUG => "debug",
        Level::TRACE => "trace",
    }
}

#[cfg(test)]
mod tests {
    use super::{filter_for, DEFAULT_FILTER};

    #[test]
    fn a_bare_level_is_for_cloudspec_only() {
        assert_eq!(
            filter_for("debug"),
            "error,cloudspec=debug,cloudspec_aws=debug,cloudspec_model=debug,cloudspec_hcl=debug,cloudspec_composition=debug,cloudspec_terraform=debug,cloudspec::say=info"
        );
        assert_eq!(
            filter_for("aws_smithy_runtime=debug"),
            format!("{DEFAULT_FILTER},aws_smithy_runtime=debug,cloudspec::say=info")
        );
    }
}
