//! The examples of README.md and the book, run: every ```console block (a `$ xiangqi ...` line, then what it
//! prints, standard error included, with `...` for lines and `[..]` for figures that vary by machine) is run by
//! trycmd against the binary built for this test, from the workspace's root, and must print what the page shows.
//! The Rust examples are doc tests of `xiangqi-cli` (`src/lib.rs` includes each page that has one); the last test
//! here checks that no page with a Rust example is left out of them.

use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// README.md and every page of the book, relative to the root.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut pages = vec![root.join("README.md")];
    walk(&root.join("book/src"), &mut pages);
    pages.into_iter().map(|p| p.strip_prefix(&root).unwrap().to_owned()).collect()
}

#[test]
fn console_examples_of_the_readme_and_the_book() {
    let root = root();
    // trycmd runs each command in the test's directory: the root, where the examples' paths start.
    std::env::set_current_dir(&root).unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("xiangqi", PathBuf::from(env!("CARGO_BIN_EXE_xiangqi")));
    let mut count = 0;
    let mut others = std::collections::BTreeSet::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let programs = console_programs(&text);
        if !programs.is_empty() {
            count += programs.iter().filter(|p| *p == "xiangqi").count();
            others.extend(programs.into_iter().filter(|p| p != "xiangqi"));
            cases.case(&page);
        }
    }
    // Other programs' examples (`python3`, `pip` in the Python chapter) are shown, not run here: their own tests run
    // them.
    for program in &others {
        cases.register_bin(program.clone(), trycmd::schema::Bin::Ignore);
    }
    assert!(count >= 10, "only {count} console examples found: are the pages there?");
    eprintln!("{count} console examples of xiangqi in README.md and the book (not run here: {others:?})");
    cases.run();
}

/// The program of each command of the ```console blocks of a page (the first word after `$ ` and any
/// `NAME=value` settings).
fn console_programs(text: &str) -> Vec<String> {
    let mut in_console = false;
    let mut programs = Vec::new();
    for line in text.lines() {
        if let Some(info) = line.strip_prefix("```") {
            in_console = !in_console && info.trim() == "console";
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ").filter(|_| in_console) {
            if let Some(program) = command.split_whitespace().find(|w| !w.contains('=')) {
                programs.push(program.to_owned());
            }
        }
    }
    programs
}

/// trycmd runs a fenced block without a language as a console example: every block says what it is.
#[test]
fn every_code_block_names_its_language() {
    for page in pages() {
        let text = std::fs::read_to_string(root().join(&page)).unwrap();
        let mut open = false;
        for (n, line) in text.lines().enumerate() {
            if let Some(info) = line.trim_start().strip_prefix("```") {
                if !open {
                    assert!(!info.trim().is_empty(), "{}:{}: a code block without a language", page.display(), n + 1);
                }
                open = !open;
            }
        }
        assert!(!open, "{}: a code block is not closed", page.display());
    }
}

/// Every page with a Rust example is one of `xiangqi-cli`'s doc tests, so that its examples compile and run.
#[test]
fn every_rust_example_is_a_doc_test() {
    let lib = std::fs::read_to_string(root().join("xiangqi-cli/src/lib.rs")).unwrap();
    for page in pages() {
        let text = std::fs::read_to_string(root().join(&page)).unwrap();
        if text.lines().any(|l| l.trim_start().starts_with("```rust")) {
            let include = format!("include_str!(\"../../{}\")", page.display());
            assert!(
                lib.contains(&include),
                "{} has a Rust example: add #[doc = {include}] to src/lib.rs",
                page.display()
            );
        }
    }
}

/// Every page of the book is reachable: SUMMARY.md links each `.md` file under `book/src`.
#[test]
fn every_page_is_in_the_summary() {
    let summary = std::fs::read_to_string(root().join("book/src/SUMMARY.md")).unwrap();
    for page in pages() {
        let Ok(relative) = page.strip_prefix("book/src") else { continue };
        if relative == Path::new("SUMMARY.md") {
            continue;
        }
        let link = format!("]({})", relative.display());
        assert!(summary.contains(&link), "{} is not linked from book/src/SUMMARY.md", page.display());
    }
}
