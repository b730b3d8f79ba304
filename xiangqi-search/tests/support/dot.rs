//! A small reader for the Graphviz DOT language, enough to check what `Recorder::to_dot` writes: graphs, node and
//! edge statements with attribute lists, default attribute statements, `ID = ID`, subgraphs, quoted and HTML
//! strings, comments. It rejects what it does not understand, so a malformed file fails the test.

#![allow(dead_code)]

use std::collections::BTreeMap;

/// Attributes of a statement.
pub type Attrs = BTreeMap<String, String>;

/// A parsed graph.
#[derive(Debug, Default)]
pub struct Dot {
    /// `digraph` or `graph`.
    pub directed: bool,
    /// Node statements by id, in the order declared (attributes merged when declared twice).
    pub nodes: Vec<(String, Attrs)>,
    /// Edges `(from, to, attributes)`.
    pub edges: Vec<(String, String, Attrs)>,
    /// `graph [...]` and `ID = ID` statements.
    pub graph_attrs: Attrs,
}

impl Dot {
    /// The attributes of node `id`.
    pub fn node(&self, id: &str) -> Option<&Attrs> {
        self.nodes.iter().find(|(n, _)| n == id).map(|(_, a)| a)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Id(String),
    Punct(char),
    Arrow(bool),
}

fn tokenize(text: &str) -> Result<Vec<Tok>, String> {
    let c: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') || ch == '#' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                i += 1;
            }
            if i + 1 >= c.len() {
                return Err("unterminated comment".into());
            }
            i += 2;
        } else if "{}[];,=:".contains(ch) {
            out.push(Tok::Punct(ch));
            i += 1;
        } else if ch == '-' && (c.get(i + 1) == Some(&'>') || c.get(i + 1) == Some(&'-')) {
            out.push(Tok::Arrow(c[i + 1] == '>'));
            i += 2;
        } else if ch == '"' {
            let mut s = String::new();
            i += 1;
            loop {
                match c.get(i) {
                    None => return Err("unterminated string".into()),
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        match c.get(i + 1) {
                            Some('"') => s.push('"'),
                            Some('\\') => s.push('\\'),
                            Some(&other) => {
                                s.push('\\');
                                s.push(other);
                            }
                            None => return Err("unterminated string".into()),
                        }
                        i += 2;
                    }
                    Some(&other) => {
                        s.push(other);
                        i += 1;
                    }
                }
            }
            out.push(Tok::Id(s));
        } else if ch == '<' {
            let mut depth = 0;
            let start = i;
            loop {
                match c.get(i) {
                    None => return Err("unterminated HTML string".into()),
                    Some('<') => depth += 1,
                    Some('>') => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            out.push(Tok::Id(c[start + 1..i - 1].iter().collect()));
        } else if ch.is_alphanumeric() || ch == '_' || ch == '.' || ch == '-' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.' || c[i] == '-') {
                if c[i] == '-' && i > start {
                    break;
                }
                i += 1;
            }
            out.push(Tok::Id(c[start..i].iter().collect()));
        } else {
            return Err(format!("unexpected character {ch:?}"));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    dot: Dot,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn next(&mut self) -> Result<Tok, String> {
        let t = self.toks.get(self.at).cloned().ok_or("unexpected end")?;
        self.at += 1;
        Ok(t)
    }

    fn expect(&mut self, p: char) -> Result<(), String> {
        match self.next()? {
            Tok::Punct(q) if q == p => Ok(()),
            t => Err(format!("expected {p:?}, found {t:?}")),
        }
    }

    fn id(&mut self) -> Result<String, String> {
        match self.next()? {
            Tok::Id(s) => Ok(s),
            t => Err(format!("expected an id, found {t:?}")),
        }
    }

    fn attr_lists(&mut self) -> Result<Attrs, String> {
        let mut attrs = Attrs::new();
        while self.peek() == Some(&Tok::Punct('[')) {
            self.next()?;
            loop {
                match self.peek() {
                    Some(Tok::Punct(']')) => {
                        self.next()?;
                        break;
                    }
                    Some(Tok::Punct(',' | ';')) => {
                        self.next()?;
                    }
                    _ => {
                        let k = self.id()?;
                        self.expect('=')?;
                        let v = self.id()?;
                        attrs.insert(k, v);
                    }
                }
            }
        }
        Ok(attrs)
    }

    fn node_id(&mut self) -> Result<String, String> {
        let id = self.id()?;
        if self.peek() == Some(&Tok::Punct(':')) {
            self.next()?;
            self.id()?;
        }
        Ok(id)
    }

    fn stmts(&mut self) -> Result<(), String> {
        loop {
            match self.peek() {
                None => return Err("missing '}'".into()),
                Some(Tok::Punct('}')) => {
                    self.next()?;
                    return Ok(());
                }
                Some(Tok::Punct(';')) => {
                    self.next()?;
                }
                Some(Tok::Punct('{')) => {
                    self.next()?;
                    self.stmts()?;
                }
                Some(Tok::Id(k)) if k == "subgraph" => {
                    self.next()?;
                    if let Some(Tok::Id(_)) = self.peek() {
                        self.next()?;
                    }
                    self.expect('{')?;
                    self.stmts()?;
                }
                Some(Tok::Id(k)) if k == "graph" || k == "node" || k == "edge" => {
                    let k = k.clone();
                    self.next()?;
                    let attrs = self.attr_lists()?;
                    if k == "graph" {
                        self.dot.graph_attrs.extend(attrs);
                    }
                }
                Some(Tok::Id(_)) => {
                    let first = self.node_id()?;
                    if self.peek() == Some(&Tok::Punct('=')) {
                        self.next()?;
                        let v = self.id()?;
                        self.dot.graph_attrs.insert(first, v);
                        continue;
                    }
                    let mut chain = vec![first];
                    while let Some(Tok::Arrow(directed)) = self.peek() {
                        if *directed != self.dot.directed {
                            return Err("edge operator does not match the graph kind".into());
                        }
                        self.next()?;
                        chain.push(self.node_id()?);
                    }
                    let attrs = self.attr_lists()?;
                    if chain.len() == 1 {
                        let id = chain.pop().unwrap();
                        match self.dot.nodes.iter_mut().find(|(n, _)| *n == id) {
                            Some((_, a)) => a.extend(attrs),
                            None => self.dot.nodes.push((id, attrs)),
                        }
                    } else {
                        for w in chain.windows(2) {
                            self.dot.edges.push((w[0].clone(), w[1].clone(), attrs.clone()));
                        }
                    }
                }
                Some(t) => return Err(format!("unexpected {t:?}")),
            }
        }
    }
}

/// Parses a whole DOT file.
pub fn parse(text: &str) -> Result<Dot, String> {
    let toks = tokenize(text)?;
    let mut p = Parser { toks, at: 0, dot: Dot::default() };
    if p.peek() == Some(&Tok::Id("strict".into())) {
        p.next()?;
    }
    p.dot.directed = match p.id()?.as_str() {
        "digraph" => true,
        "graph" => false,
        other => return Err(format!("expected graph or digraph, found {other}")),
    };
    if let Some(Tok::Id(_)) = p.peek() {
        p.next()?;
    }
    p.expect('{')?;
    p.stmts()?;
    if p.at != p.toks.len() {
        return Err("text after the graph".into());
    }
    Ok(p.dot)
}
