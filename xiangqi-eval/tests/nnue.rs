//! The neural evaluation: incremental accumulators equal a full refresh along random games (and after unmakes),
//! for every architecture (king buckets, output buckets), a position and its colour-flipped twin evaluate exactly
//! alike, and broken network files are refused by name.

use proptest::prelude::*;
use xiangqi_core::{PieceKind, Position, Validation};
use xiangqi_eval::nnue::{king_view, Architecture, LoadError, Network, NnueStack, HEADER_LEN, KING_BUCKETS};
use xiangqi_eval::Evaluate;

/// The architectures tested: plain, output buckets, king buckets, both.
const ARCHS: [Architecture; 4] = [
    Architecture { king_buckets: 1, hidden: 32, output_buckets: 1 },
    Architecture { king_buckets: 1, hidden: 32, output_buckets: 8 },
    Architecture { king_buckets: KING_BUCKETS, hidden: 32, output_buckets: 1 },
    Architecture { king_buckets: KING_BUCKETS, hidden: 48, output_buckets: 8 },
];

/// Plays `plies` moves chosen by `choices` (each taken modulo the number of legal moves, captures preferred when
/// the choice is odd so that pieces leave the board), checking the stack against a full refresh after every move
/// and every unmake. Returns how many king moves changed their side's king view (bucket or mirroring).
fn walk(net: &Network, choices: &[u16]) -> usize {
    let mut pos = Position::startpos();
    let mut stack = NnueStack::new(net, &pos);
    let mut refreshed = vec![0i16; 2 * net.hidden()];
    let mut evaluations = Vec::new();
    let mut king_changes = 0;
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
        // Every fourth choice plays a king move when there is one, so that kings cross buckets and mirrorings.
        let kings: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceKind::King))
            .collect();
        let m = if c % 4 == 2 && !kings.is_empty() {
            kings[usize::from(c / 4) % kings.len()]
        } else if c % 2 == 1 && !captures.is_empty() {
            captures[usize::from(c / 2) % captures.len()]
        } else {
            moves[usize::from(c / 2) % moves.len()]
        };
        let mover = pos.piece_at(m.from()).unwrap();
        if mover.kind == PieceKind::King && king_view(mover.color, m.from()) != king_view(mover.color, m.to()) {
            king_changes += 1;
        }
        stack.make(&pos, m);
        pos.make_move(m);
        // Evaluate only some plies, so that the lazy update also spans several moves at once.
        if c % 3 != 0 {
            net.refresh(&pos, &mut refreshed);
            assert_eq!(stack.current(net, &pos), &refreshed[..], "accumulators differ from a refresh in {}", pos.fen());
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
        assert_eq!(stack.current(net, &pos), &refreshed[..], "after unmake, {}", pos.fen());
    }
    assert_eq!(stack.depth(), 0);
    king_changes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_refresh(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..160)) {
        for arch in ARCHS {
            walk(&Network::random_arch(arch, seed), &choices);
        }
    }

    #[test]
    fn colour_flip_evaluates_alike(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
        which in 0..ARCHS.len(),
    ) {
        let net = Network::random_arch(ARCHS[which], seed);
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
    for arch in ARCHS {
        let changes = walk(&Network::random_arch(Architecture { hidden: 256, ..arch }, 12), &choices);
        assert!(changes >= 5, "{arch}: {changes} king moves across views");
    }
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
    assert!(matches!(header_with(|b| put(b, 8, 3)), Err(LoadError::Version { found: 3 })));
    assert!(matches!(header_with(|b| put(b, 12, 1261)), Err(LoadError::Architecture { inputs: 1261, .. })));
    assert!(matches!(header_with(|b| put(b, 16, 4)), Err(LoadError::KingBuckets { found: 4 })));
    assert!(matches!(header_with(|b| put(b, 20, 24)), Err(LoadError::Architecture { hidden: 24, .. })));
    assert!(matches!(header_with(|b| put(b, 24, 0)), Err(LoadError::OutputBuckets { found: 0 })));
    assert!(matches!(header_with(|b| put(b, 24, 17)), Err(LoadError::OutputBuckets { found: 17 })));
    assert!(matches!(header_with(|b| put(b, 28, 2)), Err(LoadError::Architecture { outputs: 2, .. })));
    assert!(matches!(header_with(|b| put(b, 32, 127)), Err(LoadError::Quantization { qa: 127, .. })));
    // Another architecture in the header than the weights that follow: the length disagrees.
    assert!(matches!(header_with(|b| put(b, 20, 32)), Err(LoadError::Truncated { .. })));
    assert!(matches!(header_with(|b| put(b, 16, 6)), Err(LoadError::Truncated { .. })));
    assert!(matches!(header_with(|b| put(b, 24, 2)), Err(LoadError::Truncated { .. })));
    assert!(matches!(header_with(|b| b.push(0)), Err(LoadError::TooLong { .. })));
    assert!(matches!(
        header_with(|b| {
            let at = HEADER_LEN + 2 * (1260 * 16 + 16);
            b[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
        }),
        Err(LoadError::OutputWeight { index: 0, value: 200 })
    ));
    // The messages name what is wrong.
    let msg = |r: Result<Network, LoadError>| r.unwrap_err().to_string();
    assert!(msg(header_with(|b| put(b, 8, 3))).contains("version 3"));
    assert!(msg(header_with(|b| put(b, 16, 4))).contains("4 king buckets"));
    assert!(msg(header_with(|b| put(b, 24, 17))).contains("17 output buckets"));
    // A version 1 file with a bad field is refused as well.
    let mut v1 = Network::random(16, 4).to_bytes_v1().unwrap();
    v1[16..20].copy_from_slice(&24u32.to_le_bytes());
    assert!(matches!(Network::from_bytes(&v1), Err(LoadError::Architecture { hidden: 24, .. })));
    let missing = std::env::temp_dir().join("xiangqi-eval-no-such-network.nnue");
    let err = Network::load(&missing).unwrap_err();
    assert!(matches!(err, LoadError::Missing(_)));
    assert!(err.to_string().contains("not found"), "{err}");
    // A good file of each architecture loads from disk as it was written.
    let path = std::env::temp_dir().join(format!("xiangqi-eval-test-{}.nnue", std::process::id()));
    for arch in ARCHS {
        let net = Network::random_arch(arch, 9);
        net.save(&path).unwrap();
        let back = Network::load(&path).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.evaluate(&Position::startpos()), net.evaluate(&Position::startpos()));
    }
    std::fs::remove_file(&path).unwrap();
}

/// The earlier built-in networks are kept, `networks/gen1.nnue` (a version 1 file) and `networks/gen2.nnue`: each
/// loads as that network (its training hash), and the built-in network is a third one.
#[test]
fn kept_networks_load_as_the_earlier_networks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("networks");
    let embedded = xiangqi_eval::embedded_network();
    assert_eq!(embedded.hash(), 0xe80c_88a8_1b77_9574, "the built-in network's training hash");
    let pos = Position::startpos();
    for (file, version, hash) in [("gen1.nnue", 1, 0xf690_598f_a616_2f83), ("gen2.nnue", 2, 0x7a47_004d_12d4_28d6)] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), version, "{file}'s format version");
        let net = Network::load(&dir.join(file)).unwrap();
        assert_eq!(net.architecture(), Architecture::plain(256));
        assert_eq!(net.hash(), hash, "{file}'s training hash");
        assert_ne!(net.evaluate(&pos), embedded.evaluate(&pos), "{file} evaluates otherwise than the built-in network");
        // Written again in the current format, it reads back as the same network.
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    }
}
