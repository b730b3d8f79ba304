//! The variant matrix as a regression signature: for fixed positions and depths, each preset's score, best move,
//! PV and node count, through `xiangqi compare --json`. A changed snapshot is a decision to review: a change to the
//! evaluation, the generator's move order or a technique shows up here.

use std::process::Command;

const POSITIONS: &[(&str, &str, u32)] = &[
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 3),
    ("p2-middlegame", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 3),
    ("p4-rook-endgame", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 4),
    ("p8-cannon-horse", "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1", 4),
];

const VARIANTS: &str = "minimax,alphabeta,negamax,negamax-ab,negamax-ab-hard,pvs,nmp,qs,pvs+nmp+qs,pvs+nmp+qs+order";

fn matrix(fen: &str, depth: u32) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["compare", "--fen", fen, "--depth", &depth.to_string(), "--variants", VARIANTS, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut s = format!("{fen} depth {depth}\n");
    for row in v["variants"].as_array().unwrap() {
        let pv: Vec<&str> = row["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        s.push_str(&format!(
            "{:<18} score {:>6} best {} main {:>8} quiescence {:>8} pv {}\n",
            row["variant"].as_str().unwrap(),
            row["score"],
            row["best_move"].as_str().unwrap_or("-"),
            row["main_nodes"],
            row["quiescence_nodes"],
            pv.join(" ")
        ));
    }
    s
}

#[test]
fn variant_matrix_signature() {
    for &(name, fen, depth) in POSITIONS {
        let text = matrix(fen, depth);
        // The exact variants agree on the score (the equality the crate's own tests prove in depth).
        let scores: Vec<&str> = text.lines().skip(1).take(6).map(|l| l.split_whitespace().nth(2).unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] == w[1]), "{name}: {text}");
        insta::assert_snapshot!(name, text);
    }
}
