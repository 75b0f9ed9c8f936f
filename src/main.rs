#![forbid(unsafe_code)]

// Loading an inventory allocates millions of small values; mimalloc makes that markedly
// faster than the system allocator (bench/README.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cloudspec::cli::main()
}
