use super::*;

fn names(files: &[File]) -> Vec<&str> {
    files.iter().map(|f| f.name.as_str()).collect()
}

fn member(name: &str, text: &str, line: usize) -> Member {
    Member {
        name: name.into(),
        text: text.into(),
        line,
    }
}

// --- txtar ---------------------------------------------------------------------------

#[test]
fn txtar_members_start_on_the_line_after_their_marker() {
    let text = "a comment\n-- a.hcl --\nx = 1\n\n-- b.hcl --\ny = 2\n";
    assert_eq!(
        txtar(text),
        vec![
            member("a.hcl", "x = 1\n\n", 3),
            member("b.hcl", "y = 2\n", 6)
        ]
    );
}

#[test]
fn only_the_last_member_gets_a_final_line_feed() {
    assert_eq!(txtar("-- a --\nx"), vec![member("a", "x\n", 2)]);
    // A member before a marker always ends with the marker's line feed.
    assert_eq!(
        txtar("-- a --\nx\n-- b --\ny"),
        vec![member("a", "x\n", 2), member("b", "y\n", 4)]
    );
    // Empty stays empty, also for a marker on the last line without a line feed.
    assert_eq!(
        txtar("-- a --\n-- b --"),
        vec![member("a", "", 2), member("b", "", 2)]
    );
}

#[test]
fn marker_names_are_trimmed_and_never_empty() {
    assert_eq!(
        names(&parse_txtar("--   main.hcl \t --\nx\n")),
        ["main.hcl"]
    );
    // `-- --` is too short and `--  --` names nothing: both are text, as in Go.
    assert_eq!(txtar("-- --\n--  --\n-- a --\n"), vec![member("a", "", 4)]);
}

#[test]
fn lines_that_are_not_markers_are_text() {
    let text = "-- a --\n--a--\n -- b --\nx -- c --\n-- d -- x\n-- e --\r\ny\n";
    assert_eq!(
        txtar(text),
        vec![member(
            "a",
            "--a--\n -- b --\nx -- c --\n-- d -- x\n-- e --\r\ny\n",
            2
        )]
    );
}

#[test]
fn text_before_the_first_marker_is_a_comment() {
    assert_eq!(txtar("just text\n-- not a marker\n"), vec![]);
    assert_eq!(txtar(""), vec![]);
    assert_eq!(
        txtar("comment\n-- not a marker\n-- a --\nx\n"),
        vec![member("a", "x\n", 4)]
    );
}

#[test]
fn a_yaml_block_scalar_archive_keeps_its_one_final_line_feed() {
    // `hcl: |` gives text ending with one line feed: nothing is added or lost.
    let hcl = "-- main.hcl --\nresource a {\n}\n";
    assert_eq!(txtar(hcl), vec![member("main.hcl", "resource a {\n}\n", 2)]);
}

// --- compositions on disk ------------------------------------------------------------

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_directory_gives_its_hcl_files_sorted_not_recursively() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.hcl", "b = 1\n");
    write(dir.path(), "a.hcl", "a = 1\n");
    write(dir.path(), "notes.md", "no\n");
    std::fs::create_dir(dir.path().join("sub.hcl")).unwrap();
    write(&dir.path().join("sub.hcl"), "c.hcl", "c = 1\n");
    let loaded = load(dir.path()).unwrap();
    assert_eq!(names(&loaded.composition.files), ["a.hcl", "b.hcl"]);
    assert_eq!(loaded.composition.files[0].text, "a = 1\n");
    let (file, line) = loaded.origins.locate("b.hcl", 3);
    assert_eq!(file, display_path(&dir.path().join("b.hcl")));
    assert_eq!(line, 3);
}

#[test]
fn an_empty_directory_has_no_hcl_input_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.tf", "x = 1\n");
    let err = load(dir.path()).unwrap_err();
    assert_eq!(err.file, display_path(dir.path()));
    assert_eq!(
        err.message,
        "no HCL input files found (no *.hcl file in this directory)"
    );
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_followed_only_inside_the_directory() {
    let outside = tempfile::tempdir().unwrap();
    let secret = write(outside.path(), "secret.hcl", "s = 1\n");
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.hcl", "a = 1\n");
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    write(&dir.path().join("lib"), "shared.txt", "shared = 1\n");
    std::os::unix::fs::symlink("lib/shared.txt", dir.path().join("b.hcl")).unwrap();
    let loaded = load(dir.path()).unwrap();
    assert_eq!(names(&loaded.composition.files), ["a.hcl", "b.hcl"]);
    assert_eq!(loaded.composition.files[1].text, "shared = 1\n");

    std::os::unix::fs::symlink(&secret, dir.path().join("c.hcl")).unwrap();
    let err = load(dir.path()).unwrap_err();
    assert_eq!(err.file, display_path(&dir.path().join("c.hcl")));
    assert_eq!(
        err.message,
        format!(
            "symbolic link to a file outside {}; cloudspec does not follow links out of the \
             directory it was given",
            display_path(dir.path())
        )
    );
    std::fs::remove_file(dir.path().join("c.hcl")).unwrap();
    std::os::unix::fs::symlink("../../nowhere.hcl", dir.path().join("c.hcl")).unwrap();
    let err = load(dir.path()).unwrap_err();
    assert!(
        err.message
            .starts_with("symbolic link that cannot be followed: "),
        "{err}"
    );
}

#[test]
fn one_file_is_named_by_its_base_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "main.hcl", "x = 1\n");
    let loaded = load(&path).unwrap();
    assert_eq!(
        loaded.composition.files,
        vec![File {
            name: "main.hcl".into(),
            text: "x = 1\n".into()
        }]
    );
    assert_eq!(
        loaded.origins.locate("main.hcl", 2),
        (display_path(&path), 2)
    );
}

#[test]
fn a_txtar_file_gives_its_members_and_their_lines_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "c.txtar",
        "notes\n-- a.hcl --\nx = 1\n-- b.hcl --\ny = 2\n",
    );
    let loaded = load(&path).unwrap();
    assert_eq!(names(&loaded.composition.files), ["a.hcl", "b.hcl"]);
    assert_eq!(loaded.origins.locate("b.hcl", 1), (display_path(&path), 5));
    let empty = write(dir.path(), "e.txtar", "only a comment\n");
    let err = load(&empty).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: no HCL input files found (a txtar archive starts each file with a line `-- NAME --`)",
            display_path(&empty)
        )
    );
    let crlf = write(dir.path(), "w.txtar", "-- a.hcl --\r\nx = 1\r\n");
    assert_eq!(
        load(&crlf).unwrap_err().message,
        "no HCL input files found (a txtar archive starts each file with a line `-- NAME --`; \
         its lines end with CR LF, and a marker line must end with a bare line feed)"
    );
    let twice = write(
        dir.path(),
        "t.txtar",
        "-- a.hcl --\nx = 1\n-- a.hcl --\ny = 2\n",
    );
    assert_eq!(
        load(&twice).unwrap_err().message,
        "two files named \"a.hcl\"; the files of a composition have unique names"
    );
}

#[test]
fn a_missing_path_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let err = load(&dir.path().join("nope")).unwrap_err();
    assert!(err.message.starts_with("cannot read: "), "{err}");
}

// --- Composition YAML ----------------------------------------------------------------

fn composition(steps: &str) -> String {
    format!(
        "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\n\
         spec:\n  compositeTypeRef:\n    apiVersion: example.com/v1\n    kind: XThing\n  \
         mode: Pipeline\n  pipeline:\n{steps}"
    )
}

const HCL_STEP: &str = "    - step: run hcl\n      functionRef:\n        name: fn-hcl\n      input:\n        apiVersion: hcl.fn.crossplane.io/v1beta1\n        kind: HclInput\n        source: Inline\n        debug: true\n        hcl: |\n          -- main.hcl --\n          resource a {\n\n            body = {}\n          }\n          -- more.hcl --\n          locals { x = 1 }\n";

const OTHER_STEP: &str =
    "    - step: auto-ready\n      functionRef:\n        name: fn-auto-ready\n";

fn from_yaml(text: &str) -> Result<Loaded, InputError> {
    composition_yaml("c.yaml", text)
}

#[test]
fn a_composition_gives_the_archive_of_its_hcl_step() {
    let text = composition(&format!("{HCL_STEP}{OTHER_STEP}"));
    let loaded = from_yaml(&text).unwrap();
    assert_eq!(
        loaded.composition.files,
        vec![
            File {
                name: "main.hcl".into(),
                text: "resource a {\n\n  body = {}\n}\n".into()
            },
            File {
                name: "more.hcl".into(),
                text: "locals { x = 1 }\n".into()
            }
        ]
    );
    // `-- main.hcl --` is line 20 of the YAML: main.hcl's line 1 is line 21.
    assert_eq!(loaded.origins.locate("main.hcl", 1), ("c.yaml".into(), 21));
    assert_eq!(loaded.origins.locate("more.hcl", 1), ("c.yaml".into(), 26));
}

#[test]
fn an_archive_in_a_quoted_string_keeps_member_lines() {
    let step = "    - step: s\n      input:\n        kind: HclInput\n        hcl: \"-- main.hcl --\\nresource a {\\n  body = {}\\n}\\n\"\n";
    let loaded = from_yaml(&composition(step)).unwrap();
    assert_eq!(names(&loaded.composition.files), ["main.hcl"]);
    assert_eq!(
        loaded.origins.locate("main.hcl", 2),
        ("c.yaml#main.hcl".into(), 2)
    );
}

#[test]
fn a_composition_needs_exactly_one_hcl_step() {
    let err = from_yaml(&composition(OTHER_STEP)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "c.yaml: no pipeline step has an input of kind HclInput (steps: \"auto-ready\")"
    );
    let second = HCL_STEP.replace("run hcl", "again");
    let err = from_yaml(&composition(&format!("{HCL_STEP}{OTHER_STEP}{second}"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "c.yaml: 2 pipeline steps have an input of kind HclInput (\"run hcl\", \"again\"); \
         cloudspec renders one function-hcl step"
    );
    let nameless = "    - input:\n        kind: HclInput\n        hcl: \"\"\n";
    let err = from_yaml(&composition(&format!("{nameless}{nameless}"))).unwrap_err();
    assert_eq!(
        err.message,
        "2 pipeline steps have an input of kind HclInput (step 1, step 2); cloudspec renders \
         one function-hcl step"
    );
    let err = from_yaml(&composition("    []\n")).unwrap_err();
    assert_eq!(
        err.message,
        "no pipeline step has an input of kind HclInput (steps: none)"
    );
}

#[test]
fn the_hcl_step_must_be_inline_txtar() {
    let file = HCL_STEP.replace("source: Inline", "source: File");
    assert_eq!(
        from_yaml(&composition(&file)).unwrap_err().message,
        "step \"run hcl\": HclInput source \"File\"; only Inline is supported"
    );
    let plain = "    - step: s\n      input:\n        kind: HclInput\n        hcl: |\n          resource a {}\n";
    assert_eq!(
        from_yaml(&composition(plain)).unwrap_err().message,
        "no HCL input files found (step \"s\": input.hcl must be a txtar archive, each file \
         starting with a line `-- NAME --`)"
    );
    let missing = "    - step: s\n      input:\n        kind: HclInput\n";
    assert!(from_yaml(&composition(missing))
        .unwrap_err()
        .message
        .starts_with("no HCL input files found"));
    let number = "    - step: s\n      input:\n        kind: HclInput\n        hcl: 5\n";
    assert_eq!(
        from_yaml(&composition(number)).unwrap_err().message,
        "step \"s\": input.hcl is not a string"
    );
}

#[test]
fn a_yaml_file_that_is_not_one_composition_is_refused() {
    assert_eq!(
        from_yaml("apiVersion: v1\nkind: ConfigMap\n").unwrap_err().message,
        "not a Crossplane Composition: no document has apiVersion apiextensions.crossplane.io/v1 and kind Composition"
    );
    let old = composition(HCL_STEP).replace("crossplane.io/v1\n", "crossplane.io/v1beta1\n");
    assert_eq!(
        from_yaml(&old).unwrap_err().message,
        "document 1: a Composition of apiVersion \"apiextensions.crossplane.io/v1beta1\"; \
         cloudspec reads apiextensions.crossplane.io/v1"
    );
    let one = composition(HCL_STEP);
    let two = format!("{one}---\napiVersion: v1\nkind: ConfigMap\n---\n{one}");
    assert_eq!(
        from_yaml(&two).unwrap_err().message,
        "2 Compositions (documents 1, 3); give a file with one"
    );
    // Other documents beside one Composition are fine.
    let with_xrd = format!(
        "apiVersion: apiextensions.crossplane.io/v1\nkind: CompositeResourceDefinition\n---\n{one}"
    );
    assert_eq!(
        names(&from_yaml(&with_xrd).unwrap().composition.files),
        ["main.hcl", "more.hcl"]
    );
    let no_pipeline = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nspec: {}\n";
    assert_eq!(
        from_yaml(no_pipeline).unwrap_err().message,
        "the Composition has no spec.pipeline; function-hcl runs as a step of a Pipeline-mode Composition"
    );
}

#[test]
fn a_composition_file_is_read_by_its_extension() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "composition.yml", &composition(HCL_STEP));
    let loaded = load(&path).unwrap();
    assert_eq!(names(&loaded.composition.files), ["main.hcl", "more.hcl"]);
    assert_eq!(
        loaded.origins.locate("main.hcl", 3),
        (display_path(&path), 23)
    );
}

// --- the request's documents ---------------------------------------------------------

#[test]
fn the_xr_is_one_object() {
    let xr = parse_xr(
        "xr.yaml",
        "# the claim\n---\napiVersion: example.com/v1\nkind: X\n",
    )
    .unwrap();
    assert_eq!(xr["kind"], "X");
    assert_eq!(
        parse_xr("xr.yaml", "a: 1\n---\nb: 2\n")
            .unwrap_err()
            .to_string(),
        "xr.yaml: 2 YAML documents; --xr takes one, the composite resource"
    );
    assert_eq!(
        parse_xr("xr.yaml", "- a\n").unwrap_err().to_string(),
        "xr.yaml: the composite resource is a list; it must be a YAML mapping (an object)"
    );
    assert_eq!(
        parse_xr("xr.yaml", "").unwrap_err().to_string(),
        "xr.yaml: no YAML document; --xr takes the composite resource, one YAML object"
    );
}

#[test]
fn yaml_is_read_as_yaml_1_2() {
    let xr = parse_xr(
        "xr.yaml",
        "a: yes\nb: no\nc: on\nd: off\ne: y\nf: true\ng: False\nh: ~\ni: 010\nj: 1.5\nk: 0x10\n80: port\n",
    )
    .unwrap();
    // YAML 1.1's booleans stay strings; YAML 1.2's are booleans.
    assert_eq!(xr["a"], "yes");
    assert_eq!(xr["b"], "no");
    assert_eq!(xr["c"], "on");
    assert_eq!(xr["d"], "off");
    assert_eq!(xr["e"], "y");
    assert_eq!(xr["f"], true);
    assert_eq!(xr["g"], false);
    assert!(xr["h"].is_null());
    assert_eq!(xr["j"], 1.5);
    assert_eq!(xr["k"], 16);
    // A key is its text.
    assert_eq!(xr["80"], "port");
    // A leading zero is neither YAML 1.1's octal nor a decimal: serde_yaml_ng keeps the text.
    assert_eq!(xr["i"], "010");
}

#[test]
fn malformed_yaml_has_a_position() {
    let err = parse_xr("xr.yaml", "a: 1\nb: [1, 2\nc: 3\n").unwrap_err();
    assert_eq!(err.file, "xr.yaml");
    assert!(err.at.is_some(), "{err:?}");
    assert_eq!(
        err.to_string(),
        "xr.yaml:3:2: did not find expected ',' or ']'"
    );
    assert_eq!(
        err.line(),
        "xr.yaml:3:2: error: did not find expected ',' or ']'"
    );
    let err = parse_xr("xr.yaml", "a:\n  b: 1\n   c: 2\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "xr.yaml:3:5: mapping values are not allowed in this context"
    );
}

#[test]
fn a_key_twice_is_an_error_at_the_second() {
    let err = parse_xr("xr.yaml", "metadata:\n  name: a\n  name: b\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "xr.yaml:3:3: metadata: the key \"name\" appears twice in one mapping"
    );
}

#[test]
fn tags_infinities_and_collection_keys_are_refused() {
    let err = parse_xr("xr.yaml", "a: !Ref b\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "xr.yaml:1:4: a: the tag !Ref is not supported: a Kubernetes object is plain data"
    );
    let err = parse_xr("xr.yaml", "a:\n  b: .inf\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "xr.yaml:2:6: a.b: inf is not a JSON number (.inf and .nan have no place in a Kubernetes object)"
    );
    let err = parse_xr("xr.yaml", "? [a]\n: 1\n").unwrap_err();
    assert!(err.at.is_some(), "{err}");
    assert!(err.message.contains("a key that is a string"), "{err}");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // A million `[` (libyaml alone would take hours over them) stop at once.
    let deep = format!("a: {}1{}\n", "[".repeat(1_000_000), "]".repeat(1_000_000));
    let err = parse_xr("xr.yaml", &deep).unwrap_err();
    assert_eq!(err.message, "values nested more than 100 levels deep");
    assert_eq!(err.file, "xr.yaml");
    assert!(err.at.is_some_and(|(line, _)| line == 1), "{err}");
    let unclosed = format!("a: {}\n", "{a: ".repeat(1_000_000));
    assert_eq!(
        parse_xr("xr.yaml", &unclosed).unwrap_err().to_string(),
        "xr.yaml:1:400: values nested more than 100 levels deep"
    );
    let mut block = String::new();
    for depth in 0..150 {
        block.push_str(&"  ".repeat(depth));
        block.push_str("a:\n");
    }
    assert_eq!(
        parse_xr("xr.yaml", &block).unwrap_err().to_string(),
        "xr.yaml:101:201: values nested more than 100 levels deep"
    );
    // 100 levels are fine.
    let ok = format!("a: {}1{}\n", "[".repeat(99), "]".repeat(99));
    assert!(parse_xr("xr.yaml", &ok).is_ok());
    let json = format!(
        "{{\"a\": {}1{}}}",
        "[".repeat(1_000_000),
        "]".repeat(1_000_000)
    );
    assert_eq!(
        parse_context("ctx.json", &json).unwrap_err().to_string(),
        "ctx.json:1:106: values nested more than 100 levels deep"
    );
}

/// `a0` holds `width` scalars; each next level repeats the one before `width` times.
fn laughs(levels: usize, width: usize) -> String {
    let mut text = format!("a0: &a0 [{}]\n", vec!["x"; width].join(", "));
    for n in 1..levels {
        let prev = vec![format!("*a{}", n - 1); width].join(", ");
        text.push_str(&format!("a{n}: &a{n} [{prev}]\n"));
    }
    text
}

#[test]
fn aliases_cannot_expand_without_bound() {
    let text = laughs(9, 10);
    assert!(text.len() < 2000);
    let err = parse_xr("xr.yaml", &text).unwrap_err();
    assert_eq!(
        err.message,
        "the file expands to more than 4000000 keys and values (an alias counts as many as it \
         repeats)"
    );
    assert!(err.at.is_some_and(|(line, _)| line == 7), "{err}");
    // One big anchor repeated often.
    let mut big = format!("a: &a [{}]\n", vec!["1"; 50_000].join(","));
    big.push_str(&format!("b: [{}]\n", vec!["*a"; 100].join(",")));
    assert!(parse_xr("xr.yaml", &big)
        .unwrap_err()
        .message
        .starts_with("the file expands to more than 4000000 keys and values"));
    // serde_yaml_ng's own bound on repetitions, relative to the document's size.
    let err = parse_xr("xr.yaml", &laughs(5, 10)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "xr.yaml: aliases repeat more often than the document's size allows (repetition limit \
         exceeded)"
    );
    // A few aliases are fine.
    let xr = parse_xr("xr.yaml", "a: &x {b: 1}\nc: *x\n").unwrap();
    assert_eq!(xr["c"]["b"], 1);
}

fn observed(docs: &str) -> Result<Vec<(String, Json)>, InputError> {
    parse_observed("obs.yaml", docs)
}

const BUCKET: &str = "apiVersion: s3.aws.upbound.io/v1beta1\nkind: Bucket\nmetadata:\n  name: b-1\n  annotations:\n    crossplane.io/composition-resource-name: bucket\n";

#[test]
fn observed_resources_are_named_by_their_annotation() {
    let other = BUCKET.replace("name: bucket", "name: other");
    let got = observed(&format!("---\n{BUCKET}---\n---\n{other}")).unwrap();
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["bucket", "other"]);
    assert_eq!(got[0].1["metadata"]["name"], "b-1");
}

#[test]
fn an_observed_resource_without_its_name_is_refused() {
    let bare = "apiVersion: s3.aws.upbound.io/v1beta1\nkind: Bucket\nmetadata:\n  name: b-1\n";
    assert_eq!(
        observed(&format!("{BUCKET}---\n{bare}"))
            .unwrap_err()
            .to_string(),
        "obs.yaml: document 2 (Bucket \"b-1\"): no crossplane.io/composition-resource-name \
         annotation; each observed resource is named by it (metadata.annotations)"
    );
    let number = BUCKET.replace("name: bucket", "name: 7");
    assert_eq!(
        observed(&number).unwrap_err().message,
        "document 1 (Bucket \"b-1\"): the crossplane.io/composition-resource-name annotation \
         is a number, not a string"
    );
    let empty = BUCKET.replace("name: bucket", "name: \"\"");
    assert_eq!(
        observed(&empty).unwrap_err().message,
        "document 1 (Bucket \"b-1\"): the crossplane.io/composition-resource-name annotation is empty"
    );
    assert_eq!(
        observed("- a\n").unwrap_err().message,
        "document 1 is a list; an observed resource must be a YAML mapping (an object)"
    );
}

#[test]
fn observed_names_are_unique() {
    let err = observed(&format!("{BUCKET}---\nkind: X\n---\n{BUCKET}")).unwrap_err();
    // The second document has no annotation, so it is reported first.
    assert!(err.message.starts_with("document 2 (X)"), "{err}");
    let again = BUCKET.replace("b-1", "b-2");
    let err = observed(&format!("{BUCKET}---\n{again}")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "obs.yaml: documents 1 and 2 are both named \"bucket\" \
         (crossplane.io/composition-resource-name); names must be unique"
    );
}

#[test]
fn extra_resources_are_objects() {
    let got = parse_extra(
        "extra.yaml",
        "apiVersion: v1\nkind: ConfigMap\n---\n---\nkind: B\n",
    )
    .unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(
        parse_extra("extra.yaml", "a: 1\n---\nplain text\n")
            .unwrap_err()
            .to_string(),
        "extra.yaml: document 2 is a string; an extra resource must be a YAML mapping (an object)"
    );
}

#[test]
fn the_context_is_a_json_object() {
    let ctx = parse_context(
        "ctx.json",
        "{\"apiextensions.crossplane.io/environment\": {\"a\": 1}}",
    )
    .unwrap();
    assert_eq!(ctx["apiextensions.crossplane.io/environment"]["a"], 1);
    assert_eq!(
        parse_context("ctx.json", "[1]").unwrap_err().to_string(),
        "ctx.json:1:1: the context is a list; it must be a JSON object"
    );
    assert_eq!(
        parse_context("ctx.json", "{\"a\": 1,\n \"b\" 2}")
            .unwrap_err()
            .to_string(),
        "ctx.json:2:6: expected `:`"
    );
    assert_eq!(
        parse_context("ctx.json", "{} x").unwrap_err().to_string(),
        "ctx.json:1:4: trailing characters"
    );
    assert_eq!(
        parse_context("ctx.json", "{\"a\": 1, \"a\": 2}")
            .unwrap_err()
            .to_string(),
        "ctx.json:1:12: the key \"a\" appears twice in one mapping"
    );
}

#[test]
fn load_inputs_reads_every_file() {
    let dir = tempfile::tempdir().unwrap();
    let xr = write(
        dir.path(),
        "xr.yaml",
        "apiVersion: example.com/v1\nkind: X\nmetadata:\n  name: x\n",
    );
    let obs = write(dir.path(), "obs.yaml", BUCKET);
    let extra = write(
        dir.path(),
        "extra.yaml",
        "apiVersion: v1\nkind: ConfigMap\n",
    );
    let ctx = write(dir.path(), "ctx.json", "{\"k\": \"v\"}");
    let inputs = load_inputs(&xr, Some(&obs), Some(&extra), Some(&ctx)).unwrap();
    assert_eq!(inputs.xr["metadata"]["name"], "x");
    assert_eq!(inputs.observed.len(), 1);
    assert_eq!(inputs.extra.as_ref().map(Vec::len), Some(1));
    assert_eq!(inputs.context["k"], "v");
    let inputs = load_inputs(&xr, None, None, None).unwrap();
    assert!(inputs.observed.is_empty() && inputs.extra.is_none() && inputs.context.is_empty());
}

#[test]
fn a_file_that_is_not_text_is_refused_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let xr = dir.path().join("xr.yaml");
    std::fs::write(&xr, b"a: 1\nb: \0\n").unwrap();
    let err = load_inputs(&xr, None, None, None).unwrap_err();
    assert_eq!(err.at, Some((2, 4)));
    assert_eq!(
        err.message,
        "not a text file (a NUL byte); the composite resource (--xr) must be UTF-8 text"
    );
    let err = load_inputs(&dir.path().join("missing.yaml"), None, None, None).unwrap_err();
    assert_eq!(err.at, None);
    assert!(err.message.starts_with("cannot read: "), "{err}");
    assert!(err.line().starts_with("error: "), "{}", err.line());
}
