//! The waiver loader (`cloudspec::waivers::parse`), as `run --waivers` uses it: any text
//! parses or fails without a panic, every error has a 1-based position, and the globs of
//! the waivers read match without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = cloudspec_fuzz::text(data, "waiver file") else {
        return;
    };
    match cloudspec::waivers::parse(&text) {
        Err(e) => assert!(e.line >= 1 && e.column >= 1, "no position: {e}"),
        Ok(waivers) => {
            for w in &waivers {
                let _ = cloudspec::waivers::glob_match(&w.rule, "EC2 validations/Rule 1");
                let _ = cloudspec::waivers::glob_match(&w.rule, &w.rule);
                if let Some(resource) = &w.resource {
                    let _ = cloudspec::waivers::glob_match(resource, "i-0abc123");
                    let _ = cloudspec::waivers::glob_match(resource, resource);
                }
                for (key, value) in &w.tags {
                    let _ = cloudspec::waivers::glob_match(value, key);
                }
                let _ = cloudspec::waivers::parse_expiry(&w.expires_text);
            }
        }
    }
});
