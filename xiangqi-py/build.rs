//! The extension module links to no libpython (maturin sets `PYO3_BUILD_EXTENSION_MODULE`); a `cargo test` binary
//! does, and finds the interpreter's shared library through an rpath, so that `cargo test` needs no
//! `LD_LIBRARY_PATH`.

fn main() {
    pyo3_build_config::add_libpython_rpath_link_args();
}
