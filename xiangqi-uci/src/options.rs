//! Options as the protocols show them: the `option` lines of `uci` and `ucci`, printed from the declarations of
//! [`xiangqi_search::options`] and the evaluator's, and `setoption` in both forms, checked against them.

use crate::go::clip;
use crate::session::Uci;
use xiangqi_search::options::{OptionDecl, OptionKind, OptionValue};

/// UCCI's own options: they change how the protocol is spoken, not the engine.
pub(crate) const USEMILLISEC: OptionDecl = OptionDecl {
    name: "usemillisec",
    ucci: Some("usemillisec"),
    kind: OptionKind::Check { default: true },
    doc: "UCCI: `go` times are in milliseconds (else seconds).",
};

/// UCCI's `newgame` button: what UCI's `ucinewgame` does, and the banned moves are forgotten.
pub(crate) const NEWGAME: OptionDecl = OptionDecl {
    name: "newgame",
    ucci: Some("newgame"),
    kind: OptionKind::Button,
    doc: "UCCI: a new game (the table, the move-ordering memory and the banned moves are cleared).",
};

/// The order of UCCI's `ucci` answer (UCCI names; their declarations are the engine's or the two above).
const UCCI_LIST: [&str; 6] = ["usemillisec", "ponder", "hashsize", "threads", "variant", "newgame"];

/// UCCI options of the specification that the engine accepts and ignores (UCCI's `ponder` among them: any value).
const UCCI_IGNORED: [&str; 15] = [
    "ponder",
    "batch",
    "debug",
    "usebook",
    "bookfiles",
    "useegtb",
    "egtbpaths",
    "promotion",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "style",
    "repetition",
    "drawmoves",
];

/// The words of an option's kind: its type, its default (` default ...`) and its range or choices (` min .. max ..`,
/// ` var ..`), which UCI and UCCI print in different orders.
fn kind_words(kind: OptionKind) -> (&'static str, String, String) {
    match kind {
        OptionKind::Check { default } => ("check", format!(" default {default}"), String::new()),
        OptionKind::Spin { default, min, max } => {
            ("spin", format!(" default {default}"), format!(" min {min} max {max}"))
        }
        OptionKind::Combo { default, choices } => {
            ("combo", format!(" default {default}"), choices.iter().map(|c| format!(" var {c}")).collect())
        }
        OptionKind::Text { default } => ("string", format!(" default {default}"), String::new()),
        OptionKind::Button => ("button", String::new(), String::new()),
    }
}

/// `option name <name> type ...`, as UCI's `uci` answer lists an option (the default before the range).
pub fn uci_line(o: &OptionDecl) -> String {
    let (kind, default, range) = kind_words(o.kind);
    format!("option name {} type {kind}{default}{range}", o.name)
}

/// `option <name> type ...`, as UCCI's `ucci` answer lists an option (the range before the default; `None` when UCCI
/// does not offer it).
pub fn ucci_line(o: &OptionDecl) -> Option<String> {
    let (kind, default, range) = kind_words(o.kind);
    Some(format!("option {} type {kind}{range}{default}", o.ucci?))
}

impl Uci {
    /// The `option` lines of the `uci` answer.
    pub(crate) fn uci_options(&self) -> Vec<String> {
        self.engine.options().iter().map(uci_line).collect()
    }

    /// The `option` lines of the `ucci` answer.
    pub(crate) fn ucci_options(&self) -> Vec<String> {
        let all: Vec<OptionDecl> = [USEMILLISEC, NEWGAME].into_iter().chain(self.engine.options()).collect();
        UCCI_LIST.iter().filter_map(|n| all.iter().find(|o| o.ucci == Some(n)).and_then(ucci_line)).collect()
    }

    /// `setoption name <name words> [value <value words>]`; `value` with nothing after it gives no value.
    pub(crate) fn setoption(&mut self, words: &[&str]) {
        let (Some(&"name"), Some(rest)) = (words.first(), words.get(1..).filter(|r| !r.is_empty())) else {
            return self.out.error("setoption needs: setoption name <name> [value <value>]");
        };
        let (name, value) = match rest.iter().position(|&w| w == "value") {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" ")).filter(|v| !v.is_empty())),
            None => (rest.join(" "), None),
        };
        if self.running.is_some() && !name.eq_ignore_ascii_case(xiangqi_search::options::PONDER.name) {
            return self.out.error(&format!("cannot change {} during a search", clip(&name, 40)));
        }
        let typed = clip(&name, 40);
        let Some(decl) = self.engine.option(&name) else {
            return self.out.error(&format!("unknown option {typed:?}"));
        };
        // A number's errors name the option as typed; the others by its name.
        let shown = if matches!(decl.kind, OptionKind::Spin { .. }) { typed.as_str() } else { decl.name };
        self.set(&decl, shown, value.as_deref());
    }

    /// `setoption <name> [<value>]`, the UCCI form (a check takes `on`/`off` as well as `true`/`false`).
    pub(crate) fn ucci_setoption(&mut self, words: &[&str]) {
        let Some((name, value)) = words.split_first() else {
            return self.out.error("setoption needs: setoption <name> [<value>]");
        };
        let name = name.to_ascii_lowercase();
        let value = value.join(" ");
        let shown = clip(&name, 40);
        if self.running.is_some() {
            return self.out.error(&format!("cannot change {shown} during a search"));
        }
        if UCCI_IGNORED.contains(&name.as_str()) {
            return;
        }
        let decl = [USEMILLISEC, NEWGAME].into_iter().chain(self.engine.options()).find(|o| o.ucci == Some(&name));
        let Some(decl) = decl else { return self.out.error(&format!("unknown option {shown:?}")) };
        let value = match (decl.kind, value.as_str()) {
            (OptionKind::Check { .. }, "on") => "true",
            (OptionKind::Check { .. }, "off") => "false",
            _ => value.as_str(),
        };
        match decl.parse(&shown, Some(value)) {
            Ok(OptionValue::Check(b)) if decl == USEMILLISEC => self.millis = b,
            Ok(_) if decl == NEWGAME => self.new_game(),
            Ok(v) => self.apply(&decl, &v),
            Err(e) => self.out.error(&e),
        }
    }

    /// Checks `value` against `decl` and sets it (errors name the option `shown`).
    fn set(&mut self, decl: &OptionDecl, shown: &str, value: Option<&str>) {
        match decl.parse(shown, value) {
            Ok(v) => self.apply(decl, &v),
            Err(e) => self.out.error(&e),
        }
    }

    /// Sets an engine option, saying what the engine says.
    fn apply(&mut self, decl: &OptionDecl, value: &OptionValue) {
        match self.engine.set_option(decl, value) {
            Ok(Some(said)) => self.out.line(&format!("info string {said}")),
            Ok(None) => {}
            Err(e) => self.out.error(&e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_as_the_protocols_print_them() {
        let hash = xiangqi_search::options::HASH;
        assert_eq!(uci_line(&hash), "option name Hash type spin default 16 min 1 max 32768");
        assert_eq!(ucci_line(&hash).unwrap(), "option hashsize type spin min 1 max 32768 default 16");
        assert_eq!(ucci_line(&xiangqi_search::options::MULTIPV), None);
        assert_eq!(ucci_line(&NEWGAME).unwrap(), "option newgame type button");
        let combo = OptionDecl {
            name: "Style",
            ucci: Some("style"),
            kind: OptionKind::Combo { default: "a", choices: &["a", "b"] },
            doc: "",
        };
        assert_eq!(uci_line(&combo), "option name Style type combo default a var a var b");
        assert_eq!(ucci_line(&combo).unwrap(), "option style type combo var a var b default a");
    }
}
