//! Terraform's functions beyond the HCL standard library: the file functions, confined to
//! the `--terraform` tree (a path outside it gives an unknown result and a warning, and is
//! never read nor even looked at), the path functions, and the impure functions, whose
//! results are unknown (`timestamp`, `plantimestamp`, `uuid`, `bcrypt`).
//!
//! Paths are read as Terraform reads them when run in the root module's directory:
//! relative to it, `~` expanded (`lang/funcs/filesystem.go`).

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use cloudspec_hcl::eval::EvalContext;
use cloudspec_hcl::functions::{FuncError, Function, FunctionTable, Impl, Param};
use cloudspec_hcl::syntax::{parse_template, SourceFile};
use cloudspec_hcl::types::{go_quote, is_valid_identifier};
use cloudspec_hcl::{Diagnostic, Type, Value};
use cloudspec_model::input;
use sha2::Digest as _;

use crate::vars::warning;

/// At most this many directory entries are looked at by one `fileset` call.
pub const MAX_FILESET_ENTRIES: usize = 100_000;
/// At most this many directory entries are looked at by all `fileset` calls of one
/// evaluation (a `for` over `fileset` calls repeats the walk).
pub const MAX_FILESET_ENTRIES_IN_ALL: usize = 300_000;

/// Where files are read from, and where warnings go.
#[derive(Clone, Debug)]
pub struct Files {
    /// The root module's directory, canonical: relative paths start there.
    pub root: PathBuf,
    /// The tree files are read from (`--terraform-root`; the root module's directory by
    /// default), canonical and containing `root`.
    pub tree: PathBuf,
    /// Warnings of file functions (paths outside the tree), in the order they happened.
    pub warnings: Arc<Mutex<Vec<Diagnostic>>>,
    /// Directory entries `fileset` looked at so far.
    pub entries_seen: Arc<std::sync::atomic::AtomicUsize>,
}

/// A path resolved inside the tree, or why not.
enum Resolved {
    /// The path (canonical, inside the tree) and how messages show it.
    Inside(PathBuf, String),
    /// Inside the tree by name, but not there.
    Missing(String),
    /// Outside the tree: its result is unknown.
    Outside,
}

impl Files {
    fn warn_outside(&self, function: &str, path: &str) {
        let w = warning(
            "File outside the Terraform directory",
            format!(
                "{function}({}) names a file outside the Terraform directory: its result is \
                 unknown (cloudspec reads no file outside the directory it was given).",
                go_quote(&input::truncate_chars(&input::escape_control(path), 200))
            ),
            None,
        );
        if let Ok(mut list) = self.warnings.lock() {
            if !list.contains(&w) {
                list.push(w);
            }
        }
    }

    /// Terraform's path handling (`~` expanded, relative to the root, cleaned), confined to
    /// the tree: a path outside it (by name, or through a symbolic link) is `Outside`.
    fn resolve(&self, path: &str) -> Result<Resolved, FuncError> {
        let expanded = expand_home(path).map_err(FuncError::new)?;
        let joined = if Path::new(&expanded).is_absolute() {
            PathBuf::from(&expanded)
        } else {
            self.root.join(&expanded)
        };
        let clean = clean(&joined);
        if !clean.starts_with(&self.tree) {
            return Ok(Resolved::Outside);
        }
        let shown = shown_path(&self.root, &clean);
        match std::fs::canonicalize(&clean) {
            Ok(real) if real.starts_with(&self.tree) => Ok(Resolved::Inside(real, shown)),
            Ok(_) => Ok(Resolved::Outside),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Resolved::Missing(shown)),
            Err(e) => Err(FuncError::new(format!("failed to read file: {e}"))),
        }
    }

    /// The bytes of a file inside the tree; `None` (unknown) outside it.
    fn read(&self, function: &str, path: &str) -> Result<Option<(Vec<u8>, String)>, FuncError> {
        match self.resolve(path)? {
            Resolved::Outside => {
                self.warn_outside(function, path);
                Ok(None)
            }
            Resolved::Missing(shown) => Err(FuncError::arg(
                0,
                format!(
                    "no file exists at {}; this function works only with files that are \
                     distributed as part of the configuration source code, so if this file will \
                     be created by a resource in this configuration you must instead obtain this \
                     result from an attribute of that resource",
                    go_quote(&shown)
                ),
            )),
            Resolved::Inside(real, shown) => {
                if real.is_dir() {
                    return Err(FuncError::arg(
                        0,
                        format!("failed to read file: read {shown}: is a directory"),
                    ));
                }
                let file = std::fs::File::open(&real)
                    .map_err(|e| FuncError::new(format!("failed to read file: {e}")))?;
                let bytes = input::read_limited(
                    file,
                    &shown,
                    input::MAX_HCL_BYTES,
                    "a file read by a function",
                )
                .map_err(|e| FuncError::new(e.to_string()))?;
                Ok(Some((bytes, shown)))
            }
        }
    }
}

/// Lexically cleaned path (`.` and `..` resolved by name, as Go's `filepath.Clean`).
fn clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A path inside the tree as Terraform run in the root shows it: relative (`../x` above
/// the root), `/`-separated.
fn shown_path(root: &Path, p: &Path) -> String {
    match p.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) if p.is_absolute() && root.is_absolute() => relative(root, p),
        Err(_) => p.to_string_lossy().into_owned(),
    }
}

/// `homedir.Expand`: `~` and `~/...` become the home directory; `~user` is an error.
fn expand_home(path: &str) -> Result<String, String> {
    let Some(rest) = path.strip_prefix('~') else {
        return Ok(path.to_string());
    };
    if !(rest.is_empty() || rest.starts_with('/') || rest.starts_with('\\')) {
        return Err("cannot expand user-specific home dir".into());
    }
    let home = std::env::var("HOME")
        .map_err(|_| "failed to expand ~: $HOME is not defined".to_string())?;
    Ok(format!("{home}{rest}"))
}

fn str_arg(args: &[Value], i: usize) -> Result<&str, FuncError> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(FuncError::arg(i, "a string is required")),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn closure(f: impl Fn(&[Value]) -> Result<Value, FuncError> + Send + Sync + 'static) -> Impl {
    Arc::new(f)
}

/// A function of one path argument whose result is made from the file's bytes.
fn file_fn(
    files: &Files,
    name: &'static str,
    make: fn(Vec<u8>, &str) -> Result<Value, FuncError>,
) -> Function {
    let files = files.clone();
    Function::with_closure(
        name,
        vec![Param::new("path", Type::String)],
        Type::String,
        closure(move |args| {
            let path = str_arg(args, 0)?;
            match files.read(name, path)? {
                Some((bytes, shown)) => make(bytes, &shown),
                None => Ok(Value::Unknown(Type::String)),
            }
        }),
    )
}

/// The functions Terraform adds to the standard library, for files under `files.tree`.
pub fn table(files: &Files) -> FunctionTable {
    let mut t = cloudspec_hcl::functions::stdlib().clone();
    t.add(file_fn(files, "file", |bytes, shown| {
        String::from_utf8(bytes).map(Value::string).map_err(|_| {
            FuncError::new(format!(
                "contents of {} are not valid UTF-8; use the filebase64 function to obtain the \
                 Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) \
                 to obtain file hashing results instead",
                go_quote(shown)
            ))
        })
    }));
    t.add(file_fn(files, "filebase64", |b, _| {
        Ok(Value::string(b64(&b)))
    }));
    t.add(file_fn(files, "filemd5", |b, _| {
        Ok(Value::string(hex(&md5::Md5::digest(&b))))
    }));
    t.add(file_fn(files, "filesha1", |b, _| {
        Ok(Value::string(hex(&sha1::Sha1::digest(&b))))
    }));
    t.add(file_fn(files, "filesha256", |b, _| {
        Ok(Value::string(hex(&sha2::Sha256::digest(&b))))
    }));
    t.add(file_fn(files, "filesha512", |b, _| {
        Ok(Value::string(hex(&sha2::Sha512::digest(&b))))
    }));
    t.add(file_fn(files, "filebase64sha256", |b, _| {
        Ok(Value::string(b64(&sha2::Sha256::digest(&b))))
    }));
    t.add(file_fn(files, "filebase64sha512", |b, _| {
        Ok(Value::string(b64(&sha2::Sha512::digest(&b))))
    }));
    t.add(fileexists(files));
    t.add(fileset(files));
    t.add(abspath(files));
    t.add(Function::new(
        "pathexpand",
        vec![Param::new("path", Type::String)],
        Type::String,
        |args| {
            let path = str_arg(args, 0)?;
            expand_home(path).map(Value::string).map_err(FuncError::new)
        },
    ));
    t.add(Function::new(
        "basename",
        vec![Param::new("path", Type::String)],
        Type::String,
        |args| Ok(Value::string(go_base(str_arg(args, 0)?))),
    ));
    t.add(Function::new(
        "dirname",
        vec![Param::new("path", Type::String)],
        Type::String,
        |args| Ok(Value::string(go_dir(str_arg(args, 0)?))),
    ));
    // Impure: known only when Terraform runs.
    for name in ["timestamp", "plantimestamp", "uuid"] {
        t.add(Function::with_closure(
            name,
            Vec::new(),
            Type::String,
            closure(|_| Ok(Value::Unknown(Type::String))),
        ));
    }
    t.add(
        Function::with_closure(
            "bcrypt",
            vec![Param::new("str", Type::String)],
            Type::String,
            closure(|_| Ok(Value::Unknown(Type::String))),
        )
        .variadic(Param::new("cost", Type::Number)),
    );
    // templatefile evaluates its template with every function but itself.
    let mut inner = t.clone();
    inner.add(Function::with_closure(
        "templatefile",
        vec![
            Param::new("path", Type::String),
            Param::new("vars", Type::Dynamic),
        ],
        Type::Dynamic,
        closure(|_| {
            Err(FuncError::new(
                "cannot recursively call templatefile from inside templatefile call",
            ))
        }),
    ));
    t.add(templatefile(files, Arc::new(inner)));
    t
}

fn fileexists(files: &Files) -> Function {
    let files = files.clone();
    Function::with_closure(
        "fileexists",
        vec![Param::new("path", Type::String)],
        Type::Bool,
        closure(move |args| {
            let path = str_arg(args, 0)?;
            match files.resolve(path)? {
                Resolved::Outside => {
                    files.warn_outside("fileexists", path);
                    Ok(Value::Unknown(Type::Bool))
                }
                Resolved::Missing(_) => Ok(Value::Bool(false)),
                Resolved::Inside(real, shown) => {
                    let meta = std::fs::metadata(&real)
                        .map_err(|_| FuncError::new(format!("failed to stat {shown}")))?;
                    if meta.is_file() {
                        Ok(Value::Bool(true))
                    } else if meta.is_dir() {
                        Err(FuncError::new(format!(
                            "{} is a directory, not a file",
                            go_quote(&shown)
                        )))
                    } else {
                        Err(FuncError::new(format!(
                            "{} is not a regular file",
                            go_quote(&shown)
                        )))
                    }
                }
            }
        }),
    )
}

fn abspath(files: &Files) -> Function {
    let root = files.root.clone();
    Function::with_closure(
        "abspath",
        vec![Param::new("path", Type::String)],
        Type::String,
        closure(move |args| {
            let path = str_arg(args, 0)?;
            let joined = if Path::new(path).is_absolute() {
                PathBuf::from(path)
            } else {
                root.join(path)
            };
            Ok(Value::string(
                clean(&joined).to_string_lossy().replace('\\', "/"),
            ))
        }),
    )
}

/// Go's `filepath.Base`.
fn go_base(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let trimmed = p.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".into();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

/// Go's `filepath.Dir`.
fn go_dir(p: &str) -> String {
    let dir = match p.rfind('/') {
        Some(i) => &p[..=i],
        None => "",
    };
    let cleaned = clean_str(dir);
    if cleaned.is_empty() {
        ".".into()
    } else {
        cleaned
    }
}

/// Go's `path.Clean` on `/`-separated text.
fn clean_str(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

fn fileset(files: &Files) -> Function {
    let files = files.clone();
    Function::with_closure(
        "fileset",
        vec![
            Param::new("path", Type::String),
            Param::new("pattern", Type::String),
        ],
        Type::set(Type::String),
        closure(move |args| {
            let path = str_arg(args, 0)?;
            let pattern = str_arg(args, 1)?;
            let expanded = expand_home(path).map_err(FuncError::new)?;
            let base = if Path::new(&expanded).is_absolute() {
                PathBuf::from(&expanded)
            } else {
                files.root.join(&expanded)
            };
            let base = clean(&base);
            let mut found = BTreeSet::new();
            let mut seen = 0usize;
            let result = (|| {
                for pattern in expand_braces(pattern) {
                    let full = clean(&base.join(&pattern));
                    if !glob_one(&files.tree, &base, &full, &mut found, &mut seen)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            })();
            let before = files
                .entries_seen
                .fetch_add(seen, std::sync::atomic::Ordering::Relaxed);
            if before.saturating_add(seen) > MAX_FILESET_ENTRIES_IN_ALL {
                return Err(FuncError::new(format!(
                    "fileset calls looked at more than {MAX_FILESET_ENTRIES_IN_ALL} files and \
                     directories in all"
                )));
            }
            if !result? {
                files.warn_outside("fileset", path);
                return Ok(Value::Unknown(Type::set(Type::String)));
            }
            let mut out = Vec::new();
            for m in found {
                let rel = match m.strip_prefix(&base) {
                    Ok(r) => r.to_string_lossy().replace('\\', "/"),
                    Err(_) => relative(&base, &m),
                };
                out.push(Value::string(rel));
            }
            Ok(Value::set(Type::String, out))
        }),
    )
}

/// Globs one pattern (`full`, already joined to `base`, braces expanded); `false` when it
/// reaches outside the tree `root`.
fn glob_one(
    root: &Path,
    base: &Path,
    full: &Path,
    found: &mut BTreeSet<PathBuf>,
    seen: &mut usize,
) -> Result<bool, FuncError> {
    // The directory the glob starts in: the pattern's leading literal components.
    let mut start = PathBuf::new();
    let mut rest: Vec<String> = Vec::new();
    for c in full.components() {
        let s = c.as_os_str().to_string_lossy().into_owned();
        if rest.is_empty() && !has_meta(&s) {
            start.push(c.as_os_str());
        } else {
            rest.push(s);
        }
    }
    if !start.starts_with(root) || !base.starts_with(root) {
        return Ok(false);
    }
    if rest.is_empty() {
        if start.is_file() {
            found.insert(start);
        }
    } else if let Ok(real) = std::fs::canonicalize(&start) {
        if !real.starts_with(root) {
            return Ok(false);
        }
        glob(root, &start, &rest, found, seen)?;
    }
    Ok(true)
}

/// At most this many patterns come out of one pattern's `{a,b}` alternatives.
const MAX_BRACE_PATTERNS: usize = 1024;

/// `{a,b}` alternatives expanded, nested groups too (doublestar's braces).
fn expand_braces(pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![pattern.to_string()];
    while let Some(p) = todo.pop() {
        if out.len() + todo.len() > MAX_BRACE_PATTERNS {
            out.push(p);
            continue;
        }
        let chars: Vec<char> = p.chars().collect();
        // The first `{` with its matching `}`, not escaped.
        let (mut open, mut depth, mut group) = (None, 0usize, None);
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '\\' => i += 1,
                '{' => {
                    if depth == 0 {
                        open = Some(i);
                    }
                    depth += 1;
                }
                '}' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        group = open.map(|o| (o, i));
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let Some((o, c)) = group else {
            out.push(p);
            continue;
        };
        let before: String = chars[..o].iter().collect();
        let after: String = chars[c + 1..].iter().collect();
        let inner = &chars[o + 1..c];
        let mut alts = Vec::new();
        let (mut from, mut d) = (0, 0i32);
        for (j, ch) in inner.iter().enumerate() {
            match ch {
                '{' => d += 1,
                '}' => d -= 1,
                ',' if d == 0 => {
                    alts.push(inner[from..j].iter().collect::<String>());
                    from = j + 1;
                }
                _ => {}
            }
        }
        alts.push(inner[from..].iter().collect::<String>());
        for alt in alts.into_iter().rev() {
            todo.push(format!("{before}{alt}{after}"));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `filepath.Rel` for a path not under `base` (`../x`).
fn relative(base: &Path, p: &Path) -> String {
    let b: Vec<_> = base.components().collect();
    let q: Vec<_> = p.components().collect();
    let common = b.iter().zip(&q).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); b.len() - common];
    parts.extend(
        q[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

fn has_meta(s: &str) -> bool {
    s.contains(['*', '?', '[', '{', '\\'])
}

/// doublestar's `Glob`: matches `rest` (path components, `**` for any number of
/// directories) under `dir`; only regular files inside the tree are results.
fn glob(
    root: &Path,
    dir: &Path,
    rest: &[String],
    found: &mut BTreeSet<PathBuf>,
    seen: &mut usize,
) -> Result<(), FuncError> {
    let Some((first, tail)) = rest.split_first() else {
        if dir.is_file() {
            found.insert(dir.to_path_buf());
        }
        return Ok(());
    };
    if first == "**" {
        // Zero directories...
        glob(root, dir, tail, found, seen)?;
        // ...or one more, then `**` again.
        for (path, is_dir) in entries(root, dir, seen)? {
            if is_dir {
                glob(root, &path, rest, found, seen)?;
            }
        }
        return Ok(());
    }
    for (path, is_dir) in entries(root, dir, seen)? {
        let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        if !component_match(first, &name) {
            continue;
        }
        if tail.is_empty() {
            if !is_dir {
                found.insert(path);
            }
        } else if is_dir {
            glob(root, &path, tail, found, seen)?;
        }
    }
    Ok(())
}

/// The entries of `dir` inside the tree, with whether each is a directory (links
/// followed only inside the tree).
fn entries(root: &Path, dir: &Path, seen: &mut usize) -> Result<Vec<(PathBuf, bool)>, FuncError> {
    let mut out = Vec::new();
    let Ok(read) = std::fs::read_dir(dir) else {
        return Ok(out);
    };
    for entry in read.flatten() {
        *seen += 1;
        if *seen > MAX_FILESET_ENTRIES {
            return Err(FuncError::new(format!(
                "fileset looked at more than {MAX_FILESET_ENTRIES} files and directories"
            )));
        }
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_symlink() {
            match std::fs::canonicalize(&path) {
                Ok(real) if real.starts_with(root) => out.push((path, real.is_dir())),
                _ => {}
            }
        } else if kind.is_dir() || kind.is_file() {
            out.push((path, kind.is_dir()));
        }
    }
    out.sort();
    Ok(out)
}

/// One element of a path component's pattern.
enum Tok {
    /// `*`: any run of characters.
    Star,
    /// `?`: any one character.
    Any,
    Lit(char),
    /// `[...]`, `[!...]`: one character in (or not in) the ranges.
    Class(bool, Vec<(char, char)>),
}

fn tokens(pattern: &str) -> Option<Vec<Tok>> {
    let p: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            '*' => out.push(Tok::Star),
            '?' => out.push(Tok::Any),
            '\\' => {
                i += 1;
                out.push(Tok::Lit(*p.get(i)?));
            }
            '[' => {
                let close = i + 1 + p.get(i + 1..)?.iter().position(|&x| x == ']')?;
                let mut class = p.get(i + 1..close)?;
                let negate = matches!(class.first(), Some('!' | '^'));
                if negate {
                    class = &class[1..];
                }
                let mut ranges = Vec::new();
                let mut j = 0;
                while j < class.len() {
                    if j + 2 < class.len() && class[j + 1] == '-' {
                        ranges.push((class[j], class[j + 2]));
                        j += 3;
                    } else {
                        ranges.push((class[j], class[j]));
                        j += 1;
                    }
                }
                out.push(Tok::Class(negate, ranges));
                i = close;
            }
            c => out.push(Tok::Lit(c)),
        }
        i += 1;
    }
    Some(out)
}

/// One path component against one pattern component: `*`, `?`, `[...]` (`[!...]`,
/// ranges), `\` escapes (`{a,b}` alternatives are expanded before). In time linear in
/// the product of the lengths, whatever the pattern (the last `*` is retried, never all
/// of them).
fn component_match(pattern: &str, name: &str) -> bool {
    let Some(toks) = tokens(pattern) else {
        return false;
    };
    let name: Vec<char> = name.chars().collect();
    let one = |t: &Tok, c: char| match t {
        Tok::Any => true,
        Tok::Lit(l) => *l == c,
        Tok::Class(negate, ranges) => ranges.iter().any(|(lo, hi)| *lo <= c && c <= *hi) != *negate,
        Tok::Star => false,
    };
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match toks.get(p) {
            Some(Tok::Star) => {
                star = Some((p, n));
                p += 1;
            }
            Some(t) if one(t, name[n]) => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    toks[p..].iter().all(|t| matches!(t, Tok::Star))
}

fn templatefile(files: &Files, inner: Arc<FunctionTable>) -> Function {
    let files = files.clone();
    Function::with_closure(
        "templatefile",
        vec![
            Param::new("path", Type::String),
            Param::new("vars", Type::Dynamic),
        ],
        Type::Dynamic,
        closure(move |args| {
            let path = str_arg(args, 0)?;
            let vars = args.get(1).cloned().unwrap_or(Value::dynamic());
            let Some((bytes, shown)) = files.read("templatefile", path)? else {
                return Ok(Value::dynamic());
            };
            let text = String::from_utf8(bytes)
                .map_err(|_| FuncError::new(format!("contents of {shown} are not valid UTF-8")))?;
            let map = match &vars {
                Value::Map(_, m) | Value::Object(m) => m.clone(),
                _ => return Err(FuncError::arg(1, "invalid vars value: must be a map")),
            };
            for name in map.keys() {
                if !is_valid_identifier(name) {
                    return Err(FuncError::arg(
                        1,
                        format!(
                            "invalid template variable name {}: must start with a letter, \
                             followed by zero or more letters, digits, and underscores",
                            go_quote(name)
                        ),
                    ));
                }
            }
            let src = SourceFile::new(path, text.as_str());
            let template = parse_template(&src).map_err(|d| FuncError::new(d.to_string()))?;
            let ctx = EvalContext::new()
                .with_functions(inner.clone())
                .with_variables(map);
            let (value, diags) = cloudspec_hcl::eval::template(&template, &ctx, &src);
            if let Some(d) = diags
                .iter()
                .find(|d| d.severity == cloudspec_hcl::Severity::Error)
            {
                if d.summary == "Unknown variable" {
                    let name = d
                        .detail
                        .strip_prefix("There is no variable named ")
                        .and_then(|s| s.strip_suffix('.'))
                        .unwrap_or("");
                    let at = d
                        .subject
                        .as_ref()
                        .map(cloudspec_hcl::diag::range_string)
                        .unwrap_or_default();
                    return Err(FuncError::arg(
                        1,
                        format!("vars map does not contain key {name}, referenced at {at}"),
                    ));
                }
                return Err(FuncError::new(d.to_string()));
            }
            Ok(value)
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_doublestar_does() {
        assert!(component_match("*.tf", "main.tf"));
        assert!(!component_match("*.tf", "main.tf.json"));
        assert_eq!(
            expand_braces("{a,b/{c,d}}.txt"),
            vec!["a.txt", "b/c.txt", "b/d.txt"]
        );
        assert!(component_match("[a-c]?", "bz"));
        assert!(!component_match("[!a-c]?", "bz"));
        assert!(component_match("\\*", "*"));
        assert!(!component_match("\\*", "a"));
        // No exponential backtracking.
        let name = "a".repeat(250);
        let pattern = "*a".repeat(30) + "b";
        assert!(!component_match(&pattern, &name));
    }

    #[test]
    fn paths_clean_as_go_does() {
        assert_eq!(go_base("a/b/c.txt"), "c.txt");
        assert_eq!(go_base("a/b/"), "b");
        assert_eq!(go_base(""), ".");
        assert_eq!(go_dir("a/b/c.txt"), "a/b");
        assert_eq!(go_dir("c.txt"), ".");
        assert_eq!(go_dir("/c.txt"), "/");
        assert_eq!(clean_str("a/../../b"), "../b");
    }
}
