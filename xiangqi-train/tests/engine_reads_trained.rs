//! The trainer and the engine share the network file (feature `train`): a tiny network trained by the trainer,
//! written with its training hash, is loaded by the engine's reader, and the engine evaluates positions as the
//! trainer's reference integer evaluation does (exactly) and as its float network does (within the quantization's
//! rounding).
#![cfg(feature = "train")]

use xiangqi_core::{Position, Validation};
use xiangqi_eval::nnue::{Network, NnueStack};
use xiangqi_eval::{EvalChoice, Evaluate, EVAL_MAX};
use xiangqi_train::data::{playout_records, Record};
use xiangqi_train::net::{reference_eval, training_hash, SCALE};
use xiangqi_train::train::{train, FirstLayer, Options};

#[test]
fn the_engine_reads_what_the_trainer_writes_and_evaluates_alike() {
    let dir = std::env::temp_dir().join(format!("xiangqi-train-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = playout_records(3_000, 30, 21);

    let opts = Options {
        hidden: 16,
        epochs: 3,
        batch: 256,
        lr: 0.01,
        lambda: 0.3,
        seed: 4,
        validation: 0.1,
        report_every: 0,
        first_layer: FirstLayer::Sparse,
        ..Options::default()
    };
    // The trainer holds out this many of the records (the last ones) for validation.
    let held_out = (records.len() as f64 * opts.validation).round() as usize;
    let outcome = train(records, &opts, |_| {}).unwrap();
    let float = &outcome.net;

    // The trainer writes the file, with its training hash; the engine reads it with its own reader.
    let hash = training_hash(&["xiangqi-train", "--data", "tiny.bin"], &[("tiny.bin".to_owned(), 150_008)]);
    let path = dir.join("tiny.nnue");
    float.quantize().unwrap().with_hash(hash).save(&path).unwrap();
    let engine = Network::load(&path).unwrap();
    assert_eq!((engine.hidden(), engine.scale(), engine.hash()), (opts.hidden, SCALE, hash));
    assert!(matches!(EvalChoice::load(&path), Ok(EvalChoice::Nnue(_))));

    // Every held-out position, and the same positions reached move by move through the engine's incremental stack.
    let (mut float_err, mut size, mut positions) = (0.0f64, 0.0f64, 0usize);
    for rec in &outcome.validation {
        let pos = Position::from_setup(&rec.setup(), Validation::Strict).unwrap();
        let engine_eval = engine.evaluate(&pos);
        let reference = reference_eval(&engine, rec);
        assert!(reference.abs() < EVAL_MAX, "{reference} in {}", rec.fen());
        assert_eq!(engine_eval, reference, "the engine and the trainer's integer evaluation in {}", rec.fen());
        let f = f64::from(float.evaluate(rec));
        float_err += (f - f64::from(engine_eval)).abs();
        size += f.abs();
        positions += 1;
    }
    assert!(positions > 0 && positions == held_out, "{positions} held-out positions, {held_out} expected");
    // The float network and the engine's integers differ by the rounding of the weights: a few per cent.
    let (err, size) = (float_err / positions as f64, size / positions as f64);
    eprintln!("engine off the float network by {err:.2} on average, evaluations {size:.1} on average");
    assert!(size > 5.0, "the tiny network learnt nothing to compare: evaluations {size:.2} on average");
    assert!(err < 0.05 * size + 1.0, "engine off the float network by {err:.2}, evaluations {size:.2}");

    let mut pos = Position::startpos();
    let mut stack = NnueStack::new(&engine, &pos);
    for text in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"] {
        let m = pos.parse_move(text).unwrap();
        stack.make(&pos, m);
        pos.make_move(m);
        let rec = Record::from_position(&pos, 0, 1);
        assert_eq!(stack.evaluate(&engine, &pos), reference_eval(&engine, &rec), "after {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_trainer_refuses_a_size_the_engine_cannot_read() {
    let records = playout_records(100, 20, 2);
    for hidden in [0, 8, 100, 2048] {
        let opts = Options { hidden, epochs: 1, batch: 32, ..Options::default() };
        let err = train(records.clone(), &opts, |_| {}).unwrap_err();
        assert!(err.to_string().contains(&format!("hidden size {hidden} is not a multiple of 16")), "{err}");
    }
    for (king_buckets, output_buckets, what) in [(2, 1, "2 king buckets"), (1, 17, "17 output buckets")] {
        let opts = Options { hidden: 32, king_buckets, output_buckets, epochs: 1, batch: 32, ..Options::default() };
        let err = train(records.clone(), &opts, |_| {}).unwrap_err();
        assert!(err.to_string().contains(what), "{err}");
    }
    let opts = Options { hidden: 32, epochs: 1, batch: 32, ..Options::default() };
    assert!(train(records, &opts, |_| {}).unwrap().net.quantize().is_ok());
}
