//! `docs/serve-protocol.md` against the message types: every type its tables list exists in the enums
//! ([`Request`], [`Response`]) and every variant of the enums is listed there.

use serde_json::json;
use std::collections::BTreeSet;
use xiangqi_web::message::{Request, Response};

/// The document's section `title` (from its `## ` heading to the next one).
fn section<'a>(doc: &'a str, title: &str) -> &'a str {
    let start = doc.find(&format!("\n## {title}\n")).unwrap_or_else(|| panic!("no section {title:?} in the document"));
    let rest = &doc[start + 4..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    &rest[..end]
}

/// The first backquoted word of each line that starts with `prefix` (a table row `| \`go\` |` or a bullet
/// `- \`state\`:`).
fn listed(text: &str, prefix: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .filter_map(|l| l.strip_prefix('`'))
        .filter_map(|l| l.split('`').next())
        .map(str::to_owned)
        .collect()
}

/// The variants serde knows for a `"type"`: the list its error names for an unknown one.
fn serde_variants(error: String) -> BTreeSet<String> {
    let list = error.split("expected one of ").nth(1).unwrap_or_else(|| panic!("no variant list in {error:?}"));
    list.split(", ").map(|v| v.trim_matches(|c: char| c == '`' || !c.is_ascii_graphic()).to_owned()).collect()
}

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/serve-protocol.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_client_table_lists_exactly_the_requests() {
    let doc = doc();
    let table = listed(section(&doc, "Client -> server"), "| ");
    let error = serde_json::from_value::<Request>(json!({"type": "no such type"})).unwrap_err().to_string();
    let variants = serde_variants(error);
    assert_eq!(table, variants, "the document's client table and the Request enum differ");
    assert_eq!(Request::TYPES.iter().map(|t| t.to_string()).collect::<BTreeSet<_>>(), variants);
}

#[test]
fn the_server_list_names_exactly_the_responses() {
    let doc = doc();
    let list = listed(section(&doc, "Server -> client"), "- ");
    let error = serde_json::from_value::<Response>(json!({"type": "no such type"})).unwrap_err().to_string();
    let variants = serde_variants(error);
    assert_eq!(list, variants, "the document's server list and the Response enum differ");
    assert_eq!(Response::TYPES.iter().map(|t| t.to_string()).collect::<BTreeSet<_>>(), variants);
}

#[test]
fn the_parser_finds_what_it_should() {
    let text = "| type | fields |\n| --- | --- |\n| `go` | x |\n| `stop` | y |\n- `a`: b\n";
    assert_eq!(listed(text, "| "), ["go", "stop"].map(String::from).into());
    assert_eq!(listed(text, "- "), ["a"].map(String::from).into());
    let e = "unknown variant `x`, expected one of `hello`, `state`".to_owned();
    assert_eq!(serde_variants(e), ["hello", "state"].map(String::from).into());
}

/// The alternatives `"a"|"b"|...` the document gives for the field `"name":` of a watched node.
fn alternatives(doc: &str, name: &str) -> BTreeSet<String> {
    let key = format!("`\"{name}\":");
    let at = doc.find(&key).unwrap_or_else(|| panic!("no {key} in the document"));
    let rest = &doc[at + key.len()..];
    let end = rest.find('`').unwrap();
    rest[..end].split('|').map(|s| s.trim_matches('"').to_owned()).collect()
}

#[test]
fn a_watched_nodes_kinds_exits_and_reasons_are_the_search_crates_names() {
    use xiangqi_search::record::PruneReason;
    use xiangqi_search::{Exit, NodeKind};
    let doc = doc();
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(alternatives(&doc, "kind"), names(&NodeKind::ALL.map(NodeKind::name)));
    assert_eq!(alternatives(&doc, "exit"), names(&Exit::ALL.map(Exit::name)));
    assert_eq!(alternatives(&doc, "reason"), names(&PruneReason::ALL.map(PruneReason::name)));
}
