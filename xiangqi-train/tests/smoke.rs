//! The training smoke test (feature `train`): 20,000 positions from random legal playouts, scored by the
//! handcrafted evaluator, a short training run, then the written network file read back.
#![cfg(feature = "train")]

use xiangqi_core::Position;
use xiangqi_eval::nnue::{Architecture, Network, NnueStack, HEADER_LEN, MAGIC};
use xiangqi_eval::Evaluate;
use xiangqi_train::data::{playout_records, read_records, write_records, Record};
use xiangqi_train::net::reference_eval;
use xiangqi_train::train::{float_loss, train, Event, FirstLayer, LrSchedule, Options};

#[test]
fn training_lowers_the_loss_and_writes_a_readable_network() {
    let dir = std::env::temp_dir().join(format!("xiangqi-train-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("smoke.bin");
    write_records(&data, &playout_records(20_000, 40, 5)).unwrap();
    let records = read_records(&data, None).unwrap();
    assert_eq!(records.len(), 20_000);

    let opts = Options {
        hidden: 32,
        epochs: 6,
        batch: 512,
        lr: 0.005,
        lr_step: 4,
        lr_drop: 0.3,
        lambda: 0.3,
        seed: 9,
        validation: 0.1,
        report_every: 5,
        first_layer: FirstLayer::Sparse,
        ..Options::default()
    };
    let mut epochs = Vec::new();
    let mut progress = 0;
    let outcome = train(records, &opts, |ev| match ev {
        Event::Progress { loss, positions_per_second, .. } => {
            assert!(loss.is_finite() && *positions_per_second > 0.0);
            progress += 1;
        }
        Event::Epoch { train_loss, validation_loss, lr, .. } => {
            epochs.push((*train_loss, *validation_loss));
            // The step schedule: 0.005 for epochs 1 to 4, then 0.0015.
            let expected = if epochs.len() <= 4 { 0.005 } else { 0.0015 };
            assert!((lr - expected).abs() < 1e-9, "epoch {}: lr {lr}", epochs.len());
        }
    })
    .unwrap();
    assert_eq!(epochs.len(), 6);
    assert!(progress >= 6, "{progress} progress reports");
    assert_eq!(outcome.split, (18_000, 2_000));
    let first_train = epochs[0].0;
    let (last_train, last_val) = *epochs.last().unwrap();
    let start = outcome.initial_validation_loss;
    eprintln!("validation loss {start:.5} -> {last_val:.5}; train loss {first_train:.5} -> {last_train:.5}");
    assert!(last_val < 0.5 * start, "validation loss {start} -> {last_val}");
    assert!(last_train < first_train, "training loss {first_train} -> {last_train}");

    // The network returned is the one of the lowest validation loss; candle's forward pass and the crate's own
    // float network agree on that loss.
    let lowest = epochs.iter().map(|e| e.1).fold(f64::INFINITY, f64::min);
    assert_eq!(outcome.best_validation_loss, lowest);
    assert_eq!(epochs[outcome.best_epoch - 1].1, lowest);
    let reference = float_loss(&outcome.net, &outcome.validation, opts.lambda);
    assert!((reference - lowest).abs() < 1e-4, "candle {lowest}, reference {reference}");

    // The weights stay clipped.
    let net = &outcome.net;
    assert!(net.w1.iter().chain(&net.b1).chain(&net.w2).all(|w| w.abs() <= 1.98));

    // The network file: header fields, exact length, and the integer evaluation following the float one.
    let out = dir.join("smoke.nnue");
    let q = net.quantize().unwrap().with_hash(0x1234_5678_9abc_def0);
    q.save(&out).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), Network::file_len(32));
    assert_eq!(bytes.len(), HEADER_LEN + 2 * (1260 * 32 + 32 + 64) + 4);
    assert_eq!(&bytes[..8], MAGIC);
    let header: Vec<u32> = bytes[8..44].chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(header, [2, 1260, 1, 32, 1, 1, 255, 64, 400]);
    let parsed = Network::load(&out).unwrap();
    assert_eq!(parsed, q);
    let (mut err, mut size) = (0.0f32, 0.0f32);
    for rec in &outcome.validation {
        let float = net.evaluate(rec);
        err += (float - reference_eval(&parsed, rec) as f32).abs();
        size += float.abs();
        // The perspective design: the colour-flipped twin scores the same.
        assert_eq!(reference_eval(&parsed, rec), reference_eval(&parsed, &rec.flip_colors()));
    }
    let n = outcome.validation.len() as f32;
    eprintln!(
        "integer evaluation off the float one by {:.2} on average, evaluations {:.1} on average",
        err / n,
        size / n
    );
    assert!(
        err < 0.03 * size,
        "integer evaluation off the float one by {} on average (evaluations {})",
        err / n,
        size / n
    );

    // What it learnt points the right way: a chariot up scores above a chariot down (random playouts teach little
    // about opening positions, so only the order is asserted).
    let up = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
    let down = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1").unwrap();
    let (up, down) = (Record::from_position(&up, 0, 1), Record::from_position(&down, 0, 1));
    assert!(
        reference_eval(&parsed, &up) > reference_eval(&parsed, &down),
        "{} vs {}",
        reference_eval(&parsed, &up),
        reference_eval(&parsed, &down)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The bucketed architecture trains too (king buckets, output buckets, a fitted-looking scale, the cosine
/// schedule, early stopping): the loss falls, the learning rate decays to its end, the file names the
/// architecture, and the engine evaluates it as the trainer's reference integer evaluation does.
#[test]
fn bucketed_training_with_cosine_and_early_stopping() {
    let records = playout_records(12_000, 40, 6);
    let opts = Options {
        hidden: 32,
        king_buckets: 6,
        output_buckets: 8,
        scale: 300,
        epochs: 8,
        batch: 256,
        lr: 0.005,
        schedule: LrSchedule::Cosine,
        lr_end: 0.02,
        patience: 2,
        lambda: 0.3,
        seed: 3,
        validation: 0.1,
        report_every: 0,
        ..Options::default()
    };
    let mut vals = Vec::new();
    let mut lrs = Vec::new();
    let outcome = train(records, &opts, |ev| {
        if let Event::Epoch { validation_loss, lr, best, .. } = ev {
            let lowest_before = vals.iter().copied().fold(f64::INFINITY, f64::min);
            assert_eq!(*best, *validation_loss < lowest_before);
            vals.push(*validation_loss);
            lrs.push(*lr);
        }
    })
    .unwrap();
    assert_eq!(vals.len(), outcome.epochs_run);
    assert!(lrs.windows(2).all(|w| w[1] < w[0]), "cosine decays: {lrs:?}");
    if outcome.epochs_run < opts.epochs {
        assert_eq!(outcome.epochs_run - outcome.best_epoch, opts.patience, "{vals:?}");
    } else {
        assert!((lrs[7] / opts.lr - opts.lr_end).abs() < 0.01, "{lrs:?}");
    }
    let start = outcome.initial_validation_loss;
    assert!(outcome.best_validation_loss < 0.8 * start, "{start} -> {vals:?}");
    let q = outcome.net.quantize().unwrap();
    assert_eq!(q.architecture(), Architecture { king_buckets: 6, hidden: 32, output_buckets: 8 });
    assert_eq!(q.scale(), 300);
    let back = Network::from_bytes(&q.to_bytes()).unwrap();
    assert_eq!(back, q);
    let (mut err, mut size) = (0.0f32, 0.0f32);
    for rec in &outcome.validation {
        let float = outcome.net.evaluate(rec);
        err += (float - reference_eval(&back, rec) as f32).abs();
        size += float.abs();
    }
    assert!(err < 0.04 * size, "integer evaluation off the float one: {err} against {size}");
    // The engine's incremental stack along a game with king moves equals the reference evaluation.
    let mut pos = Position::startpos();
    let mut stack = NnueStack::new(&back, &pos);
    for text in ["h2e2", "h9g7", "e0e1", "i9h9", "e1f1", "e9e8", "f1f2", "e8d8", "f2f1", "d8d7"] {
        let m = pos.parse_move(text).unwrap();
        stack.make(&pos, m);
        pos.make_move(m);
        let rec = Record::from_position(&pos, 0, 1);
        assert_eq!(stack.evaluate(&back, &pos), reference_eval(&back, &rec), "after {text}");
        assert_eq!(stack.evaluate(&back, &pos), back.evaluate(&pos), "after {text}");
    }
}
