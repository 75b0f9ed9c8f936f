//! hcldec (`cloudspec_hcl::hcldec::cmd::run`), as `cloudspec hcldec` runs it, with its
//! files in memory. The input is the spec file, a line `%%`, the input file and,
//! optionally, another `%%` line and a variables argument (`-V`: a JSON object, or a vars
//! file's text). A first line `#! word...` sets flags: `json` (the input is `in.json`),
//! `stdin` (the input is standard input), `with-type`, `keep-nulls`, `var-refs`,
//! `diags-json`. The run ends with status 0, 1 or 2, and prints a result only on 0.
#![no_main]

use cloudspec_hcl::hcldec::cmd::{run, Options, Source};
use cloudspec_model::input::InputError;
use libfuzzer_sys::fuzz_target;

struct Files<'a> {
    spec: &'a [u8],
    input: &'a [u8],
    vars: &'a [u8],
}

impl Source for Files<'_> {
    fn read_file(&self, path: &str) -> Result<Vec<u8>, InputError> {
        match path {
            "spec.hcldec" => Ok(self.spec.to_vec()),
            "in.hcl" | "in.json" => Ok(self.input.to_vec()),
            "vars.hcl" => Ok(self.vars.to_vec()),
            _ => Err(InputError::Io {
                path: path.to_string(),
                source: std::io::ErrorKind::NotFound.into(),
            }),
        }
    }
    fn read_stdin(&self) -> Result<Vec<u8>, InputError> {
        Ok(self.input.to_vec())
    }
}

fuzz_target!(|data: &[u8]| {
    let (words, rest) = cloudspec_fuzz::options_bytes(data);
    let has = |w: &str| words.iter().any(|x| x == w);
    let (spec, rest) = cloudspec_fuzz::split2_bytes(rest);
    let (input, vars) = cloudspec_fuzz::split2_bytes(rest);
    let files = Files { spec, input, vars };

    let mut var_args = Vec::new();
    if !vars.is_empty() {
        let inline = String::from_utf8_lossy(vars);
        if inline.trim_start().starts_with('{') {
            var_args.push(inline.into_owned());
        } else {
            var_args.push("vars.hcl".to_string());
        }
    }
    let inputs = if has("stdin") {
        Vec::new()
    } else if has("json") {
        vec!["in.json".to_string()]
    } else {
        vec!["in.hcl".to_string()]
    };
    let opts = Options {
        spec: "spec.hcldec".to_string(),
        vars: var_args,
        diags_json: has("diags-json"),
        with_type: has("with-type"),
        keep_nulls: has("keep-nulls"),
        var_refs: has("var-refs"),
        inputs,
        color: false,
        width: 80,
    };
    let outcome = run(&opts, &files);
    assert!(outcome.status <= 2, "exit status {}", outcome.status);
    if outcome.status != 0 {
        assert!(
            outcome.stdout.is_empty(),
            "a result with status {}",
            outcome.status
        );
    }
});
