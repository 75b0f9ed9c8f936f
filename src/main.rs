#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    cloudspec::cli::main()
}
