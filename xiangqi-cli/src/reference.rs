//! The command-line reference of the book (`book/src/reference/cli.md`) and the man page
//! (`book/src/reference/xiangqi.1`), generated from the clap definitions of `main.rs`, and the options table
//! (`book/src/reference/options.md`), generated from the engine's declared options, so that none can drift
//! from the binary: a test compares the committed files with what the definitions give, and
//! `XIANGQI_BLESS=1 cargo test -p xiangqi-cli --bin xiangqi reference` writes them again.

use clap::{Arg, Command};
use std::fmt::Write;

/// Text of a help string for markdown: `<`, `>` and `*` outside code spans escaped, so that `<part>` is not read
/// as an HTML tag nor `*` as emphasis.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '<' if !in_code => out.push_str("&lt;"),
            '>' if !in_code => out.push_str("&gt;"),
            '*' if !in_code => out.push_str("\\*"),
            _ => out.push(c),
        }
    }
    out
}

/// How an argument is written: `--depth <DEPTH>`, `-h, --help`, `<IN>`.
fn arg_form(arg: &Arg) -> String {
    let values: Vec<String> = match arg.get_value_names() {
        Some(names) => names.iter().map(|n| format!("<{n}>")).collect(),
        None => vec![format!("<{}>", arg.get_id().as_str().to_ascii_uppercase())],
    };
    let takes_values = arg.get_action().takes_values();
    let mut form = match (arg.get_short(), arg.get_long()) {
        (Some(s), Some(l)) => format!("-{s}, --{l}"),
        (None, Some(l)) => format!("--{l}"),
        (Some(s), None) => format!("-{s}"),
        (None, None) => {
            return values.join(" ") + if arg.get_num_args().is_some_and(|n| n.max_values() > 1) { "..." } else { "" }
        }
    };
    if takes_values {
        form.push(' ');
        form.push_str(&values.join(" "));
        if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            form.push_str("...");
        }
    }
    form
}

/// One argument as a list item: its form, what it does, its default and its possible values.
fn arg_item(arg: &Arg) -> String {
    let help = arg.get_long_help().or(arg.get_help()).map(|h| h.to_string()).unwrap_or_default();
    let mut item = format!("- `{}`", arg_form(arg));
    if arg.is_required_set() {
        item.push_str(" (required)");
    }
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    if !help.is_empty() {
        item.push_str(": ");
        item.push_str(&escape(&help));
    }
    let defaults: Vec<String> = arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if !defaults.is_empty() && !arg.is_hide_default_value_set() && arg.get_action().takes_values() {
        let _ = write!(item, " Default: `{}`.", defaults.join(","));
    }
    let possible: Vec<String> =
        arg.get_possible_values().iter().filter(|p| !p.is_hide_set()).map(|p| format!("`{}`", p.get_name())).collect();
    if !possible.is_empty() && arg.get_action().takes_values() {
        let _ = write!(item, " Values: {}.", possible.join(", "));
    }
    item.push('\n');
    item
}

/// The visible arguments of a command, `--help` and `--version` left out (every command has them).
fn visible_args(cmd: &Command) -> impl Iterator<Item = &Arg> {
    cmd.get_arguments().filter(|a| !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version"))
}

/// The section of one command and, after it, of each of its subcommands.
fn command_section(out: &mut String, cmd: &mut Command, path: &str, level: usize) {
    let about = cmd.get_long_about().or(cmd.get_about()).map(|a| a.to_string()).unwrap_or_default();
    let usage = cmd.render_usage().to_string();
    let _ = writeln!(out, "{} `{path}`\n", "#".repeat(level));
    if !about.is_empty() {
        let _ = writeln!(out, "{}\n", escape(&about.split_whitespace().collect::<Vec<_>>().join(" ")));
    }
    let _ = writeln!(out, "```text\n{}\n```\n", usage.trim_end());
    let args: Vec<String> = visible_args(cmd).map(arg_item).collect();
    if !args.is_empty() {
        out.push_str(&args.concat());
        out.push('\n');
    }
    let names: Vec<String> =
        cmd.get_subcommands().filter(|s| !s.is_hide_set()).map(|s| s.get_name().to_owned()).collect();
    for name in names {
        if let Some(sub) = cmd.find_subcommand_mut(&name) {
            command_section(out, sub, &format!("{path} {name}"), level + 1);
        }
    }
}

/// The command-line reference as markdown.
pub(crate) fn markdown(mut cmd: Command) -> String {
    cmd.build();
    let mut out = String::from(
        "# Command-line reference\n\n\
         <!-- Generated from the clap definitions of xiangqi-cli/src/main.rs by a test (src/reference.rs); do not \
         edit: `XIANGQI_BLESS=1 cargo test -p xiangqi-cli --bin xiangqi reference` writes it again. -->\n\n\
         Every subcommand of `xiangqi` and every flag, as `xiangqi help` and `xiangqi COMMAND --help` print them \
         (the same text: this page is generated from the same definitions, and a test checks that it is up to date). \
         The man page [`xiangqi.1`](xiangqi.1) is generated the same way (`man ./xiangqi.1`). \
         Without a subcommand `xiangqi` speaks UCI on standard input and output.\n\n",
    );
    let names: Vec<(String, String)> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| (s.get_name().to_owned(), s.get_about().map(|a| a.to_string()).unwrap_or_default()))
        .collect();
    out.push_str("| command | what it does |\n| --- | --- |\n");
    for (name, about) in &names {
        let _ = writeln!(out, "| [`{name}`](#xiangqi-{name}) | {} |", escape(about).replace('|', "\\|"));
    }
    out.push('\n');
    let usage = cmd.render_usage().to_string();
    let _ = writeln!(out, "```text\n{}\n```\n", usage.trim_end());
    for (name, _) in names {
        if let Some(sub) = cmd.find_subcommand_mut(&name) {
            command_section(&mut out, sub, &format!("xiangqi {name}"), 2);
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The man page `xiangqi.1`: the command's page, then a section for each subcommand (its synopsis, description and
/// options), so that one page holds the whole reference.
pub(crate) fn man_page(mut cmd: Command) -> std::io::Result<Vec<u8>> {
    cmd.build();
    let man = clap_mangen::Man::new(cmd.clone()).date("");
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    // The subcommands are sections of this page, not pages of their own (`xiangqi-perft(1)`, as clap_mangen
    // names them): the list names each as its section does.
    let mut list = Vec::new();
    man.render_subcommands_section(&mut list)?;
    let mut list = String::from_utf8_lossy(&list).into_owned();
    for sub in cmd.get_subcommands() {
        let name = sub.get_name();
        list = list.replace(&format!("xiangqi\\-{name}(1)"), &format!("\\fBxiangqi {name}\\fR"));
    }
    page.extend_from_slice(list.as_bytes());
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let title = format!("xiangqi {}", sub.get_name()).to_uppercase();
        page.extend_from_slice(format!(".SH \"{title}\"\n").as_bytes());
        let man = clap_mangen::Man::new(sub.clone());
        let mut part = Vec::new();
        man.render_synopsis_section(&mut part)?;
        man.render_description_section(&mut part)?;
        man.render_options_section(&mut part)?;
        // The subcommand's own sections become subsections of its section.
        let text = String::from_utf8_lossy(&part).replace(".SH ", ".SS ");
        page.extend_from_slice(text.as_bytes());
    }
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// The engine's UCI and UCCI options as markdown: the declared options table of `xiangqi_search::options`, the
/// evaluator's options and the tunable parameters, in the order `uci` lists them.
pub(crate) fn options_markdown() -> String {
    use xiangqi_core::evaluation::OptionKind;
    // The UCI loop's engine: its evaluator is `EvalSettings`, whose options (`Use NNUE`, `EvalFile`) follow the engine's.
    let engine = xiangqi_search::SearchEngine::new(xiangqi_eval::EvalSettings::default()).expect("the engine");
    let mut out = String::from(
        "# UCI and UCCI options\n\n\
         <!-- Generated from the engine's declared options (xiangqi_search::options, the evaluator's options and \
         xiangqi_search::params::PARAMS) by a test (xiangqi-cli/src/reference.rs); do not edit: \
         `XIANGQI_BLESS=1 cargo test -p xiangqi-cli --bin xiangqi reference` writes it again. -->\n\n\
         What `xiangqi` answers to `uci` (and, for the options with a UCCI name, to `ucci`), in that order; \
         `setoption name NAME value VALUE` sets one (UCCI: `setoption NAME VALUE`). A value out of range or of \
         the wrong type is refused with `info string error: ...`, and the option keeps its value. The command \
         line's `--hash`, `--threads` and `--multipv` take the same defaults and ranges.\n\n\
         | UCI name | UCCI name | type | default | range | what it sets |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    let params = xiangqi_search::params::PARAMS.len();
    let options = engine.options();
    for o in &options[..options.len() - params] {
        let ucci = o.ucci.map_or("".to_owned(), |u| format!("`{u}`"));
        let (kind, default, range) = match o.kind {
            OptionKind::Check { default } => ("check", default.to_string(), String::new()),
            OptionKind::Spin { default, min, max } => ("spin", default.to_string(), format!("{min} to {max}")),
            OptionKind::Combo { default, choices } => ("combo", default.to_owned(), choices.join(", ")),
            OptionKind::Text { default } => ("string", default.to_owned(), String::new()),
            OptionKind::Button => ("button", String::new(), String::new()),
        };
        let default = if default.is_empty() { default } else { format!("`{default}`") };
        let _ = writeln!(out, "| `{}` | {ucci} | {kind} | {default} | {range} | {} |", o.name, escape(o.doc));
    }
    out.push_str(
        "\nThen one spin option per tunable number of the search (UCI only), declared by the technique that uses \
         it; a parameter file (`ParamFile`, or `--params FILE` on the command line) sets several at once with \
         `name = value` lines. `xiangqi tune` tunes them ([Tuning](../measuring/tune.md)).\n\n\
         | name | default | range | what it sets |\n| --- | ---: | --- | --- |\n",
    );
    for p in xiangqi_search::params::PARAMS {
        let _ = writeln!(out, "| `{}` | {} | {} to {} | {} |", p.name, p.default, p.min, p.max, escape(p.doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use std::path::PathBuf;

    /// The committed reference equals what the clap definitions give (with `XIANGQI_BLESS=1`, it is written).
    #[test]
    fn reference_files_are_generated_from_the_clap_definitions() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../book/src/reference");
        let markdown = super::markdown(crate::Cli::command()).into_bytes();
        let man = super::man_page(crate::Cli::command()).unwrap();
        let options = super::options_markdown().into_bytes();
        let bless = std::env::var("XIANGQI_BLESS").is_ok_and(|v| v == "1");
        let mut stale = Vec::new();
        for (name, generated) in [("cli.md", markdown), ("xiangqi.1", man), ("options.md", options)] {
            let path = dir.join(name);
            if bless {
                std::fs::write(&path, &generated).unwrap();
            } else if std::fs::read(&path).ok().as_deref() != Some(&generated[..]) {
                stale.push(path.display().to_string());
            }
        }
        assert!(
            stale.is_empty(),
            "{} not what the clap definitions give: run `XIANGQI_BLESS=1 cargo test -p xiangqi-cli --bin xiangqi \
             reference` and commit the result",
            stale.join(" and ")
        );
    }

    /// Every visible subcommand and flag has its place in the markdown reference.
    #[test]
    fn the_markdown_names_every_subcommand_and_flag() {
        let mut cli = crate::Cli::command();
        cli.build();
        let text = super::markdown(cli.clone());
        for sub in cli.get_subcommands().filter(|s| !s.is_hide_set()) {
            assert!(text.contains(&format!("## `xiangqi {}`", sub.get_name())), "{}", sub.get_name());
            for arg in super::visible_args(sub) {
                if let Some(long) = arg.get_long() {
                    assert!(text.contains(&format!("`--{long}")), "xiangqi {} --{long}", sub.get_name());
                }
            }
        }
    }
}
