//! The neural evaluation: incremental accumulators equal a full refresh along random games (and after unmakes),
//! a position and its colour-flipped twin evaluate exactly alike, and broken network files are refused by name.

use proptest::prelude::*;
use xiangqi_core::{Position, Validation};
use xiangqi_eval::nnue::{LoadError, Network, NnueStack, HEADER_LEN};
use xiangqi_eval::Evaluate;

/// Plays `plies` moves chosen by `choices` (each taken modulo the number of legal moves, captures preferred when
/// the choice is odd so that pieces leave the board), checking the stack against a full refresh after every move
/// and every unmake.
fn walk(net: &Network, choices: &[u16]) {
    let mut pos = Position::startpos();
    let mut stack = NnueStack::new(net, &pos);
    let mut refreshed = vec![0i16; 2 * net.hidden()];
    let mut evaluations = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
        let m = if c % 2 == 1 && !captures.is_empty() {
            captures[usize::from(c / 2) % captures.len()]
        } else {
            moves[usize::from(c / 2) % moves.len()]
        };
        stack.make(&pos, m);
        pos.make_move(m);
        // Evaluate only some plies, so that the lazy update also spans several moves at once.
        if c % 3 != 0 {
            net.refresh(&pos, &mut refreshed);
            assert_eq!(stack.current(net), &refreshed[..], "accumulators differ from a refresh in {}", pos.fen());
            let v = stack.evaluate(net, &pos);
            assert_eq!(v, net.evaluate(&pos), "{}", pos.fen());
            evaluations.push(Some(v));
        } else {
            evaluations.push(None);
        }
    }
    // Back to the root, checking every ply on the way.
    while let Some(v) = evaluations.pop() {
        if let Some(v) = v {
            assert_eq!(stack.evaluate(net, &pos), v, "after unmakes, {}", pos.fen());
        }
        stack.unmake();
        pos.unmake_move();
        net.refresh(&pos, &mut refreshed);
        assert_eq!(stack.current(net), &refreshed[..], "after unmake, {}", pos.fen());
    }
    assert_eq!(stack.depth(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_refresh(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..160)) {
        walk(&Network::random(32, seed), &choices);
    }

    #[test]
    fn colour_flip_evaluates_alike(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let net = Network::random(64, seed);
        let mut pos = Position::startpos();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[usize::from(c) % moves.len()]);
            let flipped = Position::from_setup(&pos.setup().flip_colors(), Validation::Strict).unwrap();
            prop_assert_eq!(net.evaluate(&flipped), net.evaluate(&pos), "{} against {}", flipped.fen(), pos.fen());
        }
    }

    #[test]
    fn truncated_files_are_refused(cut in 0usize..Network::file_len(16)) {
        let bytes = Network::random(16, 3).to_bytes();
        let err = Network::from_bytes(&bytes[..cut]).unwrap_err();
        prop_assert!(matches!(err, LoadError::Truncated { .. }), "{err}");
    }
}

/// The default hidden size works too, and evaluations of a random network are not all alike (the test could fail).
#[test]
fn default_size_incremental_and_varied() {
    let net = Network::random(256, 11);
    let choices: Vec<u16> = (0..200u16).map(|i| i.wrapping_mul(7919) ^ 0x55).collect();
    walk(&net, &choices);
    let start = net.evaluate(&Position::startpos());
    let up = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
    assert_ne!(start, net.evaluate(&up));
}

fn header_with(f: impl FnOnce(&mut Vec<u8>)) -> Result<Network, LoadError> {
    let mut bytes = Network::random(16, 4).to_bytes();
    f(&mut bytes);
    Network::from_bytes(&bytes)
}

#[test]
fn wrong_files_are_refused_by_name() {
    let put = |b: &mut Vec<u8>, at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    assert!(matches!(header_with(|b| b[0] = b'Y'), Err(LoadError::BadMagic { .. })));
    assert!(matches!(Network::from_bytes(b"XQDATA01"), Err(LoadError::BadMagic { .. })));
    assert!(matches!(header_with(|b| put(b, 8, 2)), Err(LoadError::Version { found: 2 })));
    assert!(matches!(header_with(|b| put(b, 12, 1261)), Err(LoadError::Architecture { inputs: 1261, .. })));
    assert!(matches!(header_with(|b| put(b, 16, 24)), Err(LoadError::Architecture { hidden: 24, .. })));
    assert!(matches!(header_with(|b| put(b, 20, 2)), Err(LoadError::Architecture { outputs: 2, .. })));
    assert!(matches!(header_with(|b| put(b, 24, 127)), Err(LoadError::Quantization { qa: 127, .. })));
    // Another hidden size in the header than the weights that follow: the length disagrees.
    assert!(matches!(header_with(|b| put(b, 16, 32)), Err(LoadError::Truncated { .. })));
    assert!(matches!(header_with(|b| b.push(0)), Err(LoadError::TooLong { .. })));
    assert!(matches!(
        header_with(|b| {
            let at = HEADER_LEN + 2 * (1260 * 16 + 16);
            b[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
        }),
        Err(LoadError::OutputWeight { index: 0, value: 200 })
    ));
    let missing = std::env::temp_dir().join("xiangqi-eval-no-such-network.nnue");
    let err = Network::load(&missing).unwrap_err();
    assert!(matches!(err, LoadError::Missing(_)));
    assert!(err.to_string().contains("not found"), "{err}");
    // A good file loads from disk as it was written.
    let path = std::env::temp_dir().join(format!("xiangqi-eval-test-{}.nnue", std::process::id()));
    let net = Network::random(16, 9);
    std::fs::write(&path, net.to_bytes()).unwrap();
    assert_eq!(Network::load(&path).unwrap(), net);
    std::fs::remove_file(&path).unwrap();
}
