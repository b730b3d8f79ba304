//! [`Handcrafted`]: the evaluation from scratch, its terms ([`Term`]) and its breakdown ([`Trace`]). The incremental
//! path, an [`Accumulator`](super::Accumulator) and the evaluations that read it, is in `accumulator.rs`.

use super::state::{Extra, PsqState};
use crate::bits::{self, rect};
use crate::score::{Packed, TaperedScore};
use crate::weights::Weights;
use crate::{Evaluate, EVAL_MAX};
use xiangqi_core::attacks::{between, king_attacks};
use xiangqi_core::{Bitboard, Color, File, Piece, PieceKind, Position, Rank, Square};

/// The terms of the evaluation, as the breakdown ([`Trace`]) shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Term {
    /// Base values of the pieces ([`Weights::material`]); incremental.
    Material,
    /// Piece-square bonuses ([`Weights::pst`]); incremental.
    Pst,
    /// Soldiers across the river, near the palace, side by side.
    Soldiers,
    /// Horse mobility (blocked legs, poor and guarded destinations).
    Horses,
    /// Cannons against the king: empty-headed, two screens, central horse, bottom cannon.
    Cannons,
    /// Chariot mobility, open files, pins.
    Chariots,
    /// Missing advisors and elephants against the enemy's attack pressure.
    KingSafety,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// How many terms there are.
    pub const NUM: usize = 8;
    /// Every term, in index order.
    pub const ALL: [Term; Term::NUM] = [
        Term::Material,
        Term::Pst,
        Term::Soldiers,
        Term::Horses,
        Term::Cannons,
        Term::Chariots,
        Term::KingSafety,
        Term::Tempo,
    ];

    /// The term's index, `0..NUM`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A short lowercase name (`"material"`, `"king_safety"` ...), as used in the CLI's JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Pst => "pst",
            Term::Soldiers => "soldiers",
            Term::Horses => "horses",
            Term::Cannons => "cannons",
            Term::Chariots => "chariots",
            Term::KingSafety => "king_safety",
            Term::Tempo => "tempo",
        }
    }
}

/// An evaluation taken apart: each term per side, the phase and the total.
///
/// ```
/// use xiangqi_core::{Color, Position};
/// use xiangqi_eval::{Handcrafted, Term};
///
/// let eval = Handcrafted::default();
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/R2AK4 w - - 0 1").unwrap();
/// let t = eval.trace(&pos);
/// assert_eq!(t.total, eval.evaluate(&pos));
/// assert!(t.get(Term::Material, Color::Red).mg > t.get(Term::Material, Color::Black).mg);
/// assert!(t.value(Term::Material) > 0); // Red's view
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// The side to move.
    pub turn: Color,
    /// The tapered phase: `phase_max` is the full middlegame, 0 the bare endgame.
    pub phase: i32,
    /// The phase of the full middlegame.
    pub phase_max: i32,
    /// Each term's score per side, `[term][color]`, each from its own side's view (positive is good for that side).
    pub terms: [[TaperedScore; 2]; Term::NUM],
    /// The evaluation for the side to move: exactly what [`Handcrafted::evaluate`] returns.
    pub total: i32,
}

impl Trace {
    /// `color`'s score in `term`.
    pub fn get(&self, term: Term, color: Color) -> TaperedScore {
        self.terms[term.index()][color.index()]
    }

    /// Red's score minus Black's in `term`.
    pub fn net(&self, term: Term) -> TaperedScore {
        self.get(term, Color::Red) - self.get(term, Color::Black)
    }

    /// [`Trace::net`] tapered by the phase: the term's value from Red's view. The values of all terms add up to the
    /// total from Red's view up to rounding (the total tapers the sum once).
    pub fn value(&self, term: Term) -> i32 {
        self.net(term).taper(self.phase, self.phase_max)
    }

    /// The sum of all terms, Red minus Black, before tapering.
    pub fn sum(&self) -> TaperedScore {
        Term::ALL.iter().map(|&t| self.net(t)).sum()
    }

    /// The total from Red's view.
    pub fn red_view(&self) -> i32 {
        match self.turn {
            Color::Red => self.total,
            Color::Black => -self.total,
        }
    }

    /// The breakdown as a table, in the manner of Stockfish's `eval`, headed by `fen`.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_eval::Handcrafted;
    /// let pos = Position::startpos();
    /// let table = Handcrafted::default().trace(&pos).table(&pos.fen());
    /// assert!(table.contains("material"));
    /// assert!(table.lines().last().unwrap().starts_with("Evaluation:"));
    /// ```
    pub fn table(&self, fen: &str) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let pct = 100 * self.phase / self.phase_max;
        let _ = writeln!(out, "Position: {fen}");
        let _ = writeln!(out, "Phase: {}/{} ({pct}% middlegame)", self.phase, self.phase_max);
        let _ = writeln!(out);
        let _ = writeln!(out, "        Term |       Red       |      Black      |    Red - Black  | Value");
        let _ = writeln!(out, "             |    MG      EG   |    MG      EG   |    MG      EG   |");
        let rule = "-------------+-----------------+-----------------+-----------------+-------";
        let _ = writeln!(out, "{rule}");
        let row = |out: &mut String, name: &str, red: TaperedScore, black: TaperedScore, value: i32| {
            let net = red - black;
            let _ = writeln!(
                out,
                "{name:>12} | {:>6}  {:>6}  | {:>6}  {:>6}  | {:>6}  {:>6}  | {value:>6}",
                red.mg, red.eg, black.mg, black.eg, net.mg, net.eg
            );
        };
        let (mut red, mut black) = (TaperedScore::ZERO, TaperedScore::ZERO);
        for term in Term::ALL {
            let (r, b) = (self.get(term, Color::Red), self.get(term, Color::Black));
            red += r;
            black += b;
            row(&mut out, term.name(), r, b, self.value(term));
        }
        let _ = writeln!(out, "{rule}");
        row(&mut out, "total", red, black, self.red_view());
        let _ = writeln!(out);
        let _ = writeln!(out, "Value: the term tapered by the phase, from Red's view; the total tapers the sum once.");
        let _ = writeln!(
            out,
            "Evaluation: {:+} for {} (side to move), {:+} from Red's view",
            self.total,
            self.turn,
            self.red_view()
        );
        out
    }
}

/// Receives the evaluation's terms: a plain sum on the hot path, a [`Trace`] for the breakdown. Generic, so the
/// sum costs nothing more than the additions.
trait Sink {
    fn add(&mut self, term: Term, color: Color, s: Packed);

    /// The incremental terms (material and piece-square sums) of both sides.
    #[inline(always)]
    fn add_psq(&mut self, st: &PsqState) {
        for color in Color::ALL {
            self.add(Term::Material, color, st.material[color.index()].into());
            self.add(Term::Pst, color, st.pst[color.index()].into());
        }
    }
}

/// Red minus Black.
struct Net(Packed);

impl Sink for Net {
    #[inline(always)]
    fn add(&mut self, _term: Term, color: Color, s: Packed) {
        match color {
            Color::Red => self.0 += s,
            Color::Black => self.0 -= s,
        }
    }

    /// Red minus Black summed as a [`TaperedScore`] and packed once: packing is linear, so the sum is the same.
    #[inline(always)]
    fn add_psq(&mut self, st: &PsqState) {
        let (r, b) = (Color::Red.index(), Color::Black.index());
        self.0 += (st.material[r] + st.pst[r] - st.material[b] - st.pst[b]).into();
    }
}

impl Sink for [[TaperedScore; 2]; Term::NUM] {
    fn add(&mut self, term: Term, color: Color, s: Packed) {
        self[term.index()][color.index()] += s.unpack();
    }
}

/// The weights that the hot path adds up, packed.
#[derive(Clone)]
struct PackedWeights {
    tempo: Packed,
    soldier_crossed: Packed,
    soldier_connected: Packed,
    /// By the number of good destinations, `0..=8`, padded to 16 with the last value: a count masked to 4 bits
    /// indexes it without a bounds check.
    horse_mobility: [Packed; 16],
    cannon_hollow: [Packed; 10],
    cannon_hollow_escapable: Packed,
    cannon_two_screens: Packed,
    cannon_central_horse: Packed,
    cannon_bottom: Packed,
    chariot_mobility: Packed,
    chariot_open_file: Packed,
    chariot_half_open_file: Packed,
    chariot_pin: Packed,
}

impl PackedWeights {
    fn new(w: &Weights) -> PackedWeights {
        PackedWeights {
            tempo: w.tempo.into(),
            soldier_crossed: w.soldier_crossed.into(),
            soldier_connected: w.soldier_connected.into(),
            horse_mobility: std::array::from_fn(|n| w.horse_mobility[n.min(w.horse_mobility.len() - 1)].into()),
            cannon_hollow: w.cannon_hollow.map(Packed::new),
            cannon_hollow_escapable: w.cannon_hollow_escapable.into(),
            cannon_two_screens: w.cannon_two_screens.into(),
            cannon_central_horse: w.cannon_central_horse.into(),
            cannon_bottom: w.cannon_bottom.into(),
            chariot_mobility: w.chariot_mobility.into(),
            chariot_open_file: w.chariot_open_file.into(),
            chariot_half_open_file: w.chariot_half_open_file.into(),
            chariot_pin: w.chariot_pin.into(),
        }
    }
}

const fn or(a: Bitboard, b: Bitboard) -> Bitboard {
    Bitboard::new(a.bits() | b.bits())
}

/// The enemy's half of the board, by own colour (what [`bits::half_window`] reads).
#[cfg(test)]
const ENEMY_HALF: [Bitboard; 2] = [Bitboard::BLACK_HALF, Bitboard::RED_HALF];
/// Relative ranks 5-8: across the river but not yet on the last rank.
const SOLDIER_ATTACK_ZONE: [Bitboard; 2] = [rect((0, 8), (5, 8)), rect((0, 8), (1, 4))];
/// Files c-g, relative ranks 6-8: in front of and beside the enemy palace.
const PALACE_ZONE: [Bitboard; 2] = [rect((2, 6), (6, 8)), rect((2, 6), (1, 3))];
/// Points a horse does poorly on: the edge of the board and the two palace centres (ElephantEye's list).
const HORSE_POOR: Bitboard = or(
    or(or(rect((0, 8), (0, 0)), rect((0, 8), (9, 9))), or(rect((0, 0), (0, 9)), rect((8, 8), (0, 9)))),
    or(rect((4, 4), (1, 1)), rect((4, 4), (8, 8))),
);
/// File i, to keep side-by-side pairs from wrapping around a rank.
const FILE_I: Bitboard = Bitboard::file(File::I);
/// The masks that soldiers are counted in, seen through [`bits::half_window`] (`[color]`): the soldiers across the
/// river are the half window itself.
const SOLDIER_ATTACK_ZONE_W: [u64; 2] =
    [bits::half_window(Color::Red, SOLDIER_ATTACK_ZONE[0]), bits::half_window(Color::Black, SOLDIER_ATTACK_ZONE[1])];
const PALACE_ZONE_W: [u64; 2] =
    [bits::half_window(Color::Red, PALACE_ZONE[0]), bits::half_window(Color::Black, PALACE_ZONE[1])];
const NOT_FILE_I_W: [u64; 2] = [!bits::half_window(Color::Red, FILE_I), !bits::half_window(Color::Black, FILE_I)];
/// Each side's palace centre.
const PALACE_CENTRE: [Square; 2] = [Square::new(File::E, Rank::R1), Square::new(File::E, Rank::R8)];

/// [`HORSE_POOR`] in half windows.
const HORSE_POOR_H: [u64; 2] = bits::half_windows(HORSE_POOR);

/// The points from which a horse reaches a point in `color`'s own half (`[color]`): ranks 0-6 for Red's half, 3-9
/// for Black's.
const HORSE_REACHES_HOME: [Bitboard; 2] = [rect((0, 8), (0, 6)), rect((0, 8), (3, 9))];

/// The board seen through the windows that the hot path reads, shared by both sides' terms.
struct Views<'a> {
    /// The occupancy in horse windows ([`bits::horse_windows`]).
    all_w: [u64; 2],
    /// The occupancy in half windows ([`bits::half_windows`]).
    all_h: [u64; 2],
    /// Each side's pieces in horse windows, `[color]`.
    own_w: [[u64; 2]; 2],
    /// Each side's pieces in half windows, `[color]`.
    own_h: [[u64; 2]; 2],
    /// All soldiers in half windows.
    soldiers_h: [u64; 2],
    /// The occupancy file-major ([`bits::FILE_MAJOR`]).
    all_f: [u64; 2],
    /// Each side's pieces file-major, `[color]`: read where the accumulator keeps them, not copied.
    own_f: &'a [[u64; 2]; 2],
}

impl<'a> Views<'a> {
    #[inline(always)]
    fn new(pos: &Position, extra: &'a Extra) -> Views<'a> {
        let [red_f, black_f] = extra.files;
        let (red, black) = (pos.color_bb(Color::Red), pos.color_bb(Color::Black));
        Views {
            all_w: bits::horse_windows(pos.occupied()),
            all_h: bits::half_windows(pos.occupied()),
            own_w: [bits::horse_windows(red), bits::horse_windows(black)],
            own_h: [bits::half_windows(red), bits::half_windows(black)],
            soldiers_h: bits::half_windows(pos.kind_bb(PieceKind::Soldier)),
            all_f: [red_f[0] | black_f[0], red_f[1] | black_f[1]],
            own_f: &extra.files,
        }
    }
}

/// The rank of `sq` counted from `color`'s back rank.
#[inline(always)]
const fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.rank() as usize,
        Color::Black => 9 - sq.rank() as usize,
    }
}

/// The default evaluator: material, piece-square tables, and positional terms, all weighted by one [`Weights`]
/// table and tapered between middlegame and endgame by the material left.
///
/// Scores are for the side to move, within `-EVAL_MAX..=EVAL_MAX`, and symmetric: the colour-flipped and the
/// mirrored position score the same.
///
/// Use [`Handcrafted::evaluate`] (from scratch) or, in a search, an [`Accumulator`](super::Accumulator) with
/// [`Handcrafted::evaluate_with`].
#[derive(Clone)]
pub struct Handcrafted {
    weights: Weights,
    /// Part of `weights`, packed.
    packed: PackedWeights,
    /// Piece-square bonuses expanded to the 90 points, `[color][kind][square]`; Black's are Red's turned. On the
    /// heap, as the next table: an `Handcrafted` stays small to move and to embed (a search keeps one per variant).
    pst: Box<[[[TaperedScore; Square::NUM]; 7]; 2]>,
    /// The same, packed.
    pst_packed: Box<[[[Packed; Square::NUM]; 7]; 2]>,
    /// The attack units of a piece on each point (zero on its own side of the river), `[color][kind][square]`.
    attack_units: Box<[[[i32; Square::NUM]; 7]; 2]>,
    phase_max: i32,
    attack_max: i32,
    fingerprint: u64,
    lazy_margin: i32,
}

/// How far the positional terms are assumed to move a score beyond material and piece-square sums, for
/// [`Handcrafted::evaluate_lazy`]. About 90% of positions of random games stay within it (measured over 45,000
/// positions); ElephantEye's first lazy margin is the same size once its units are scaled to ours.
pub const DEFAULT_LAZY_MARGIN: i32 = 700;

impl Default for Handcrafted {
    fn default() -> Handcrafted {
        Handcrafted::new(Weights::DEFAULT)
    }
}

impl std::fmt::Debug for Handcrafted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handcrafted").field("fingerprint", &self.fingerprint).finish_non_exhaustive()
    }
}

impl Handcrafted {
    /// An evaluator with `weights`. A non-positive `attack_max` counts as 1; so does a phase total of zero.
    pub fn new(weights: Weights) -> Handcrafted {
        let mut pst = Box::new([[[TaperedScore::ZERO; Square::NUM]; 7]; 2]);
        let mut attack_units = Box::new([[[0; Square::NUM]; 7]; 2]);
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    let half_file = (sq.file() as usize).min(8 - sq.file() as usize);
                    pst[color.index()][kind.index()][sq.index()] =
                        weights.pst[kind.index()][relative_rank(color, sq)][half_file];
                    if relative_rank(color, sq) >= 5 {
                        attack_units[color.index()][kind.index()][sq.index()] = weights.attack_unit[kind.index()];
                    }
                }
            }
        }
        let phase_max: i32 =
            PieceKind::ALL.iter().map(|k| 2 * weights.phase_weight[k.index()] * k.max_count() as i32).sum();
        // FNV-1a over every weight: tells accumulators of different evaluators apart.
        let fingerprint = weights
            .to_vec()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &v| (h ^ v as u32 as u64).wrapping_mul(0x100_0000_01b3));
        Handcrafted {
            phase_max: phase_max.max(1),
            attack_max: weights.attack_max.max(1),
            packed: PackedWeights::new(&weights),
            pst_packed: Box::new(pst.map(|by_kind| by_kind.map(|by_square| by_square.map(Packed::new)))),
            weights,
            pst,
            attack_units,
            fingerprint,
            lazy_margin: DEFAULT_LAZY_MARGIN,
        }
    }

    /// This evaluator with another lazy margin (see [`Handcrafted::evaluate_lazy`]); `i32::MAX / 4` turns lazy
    /// evaluation off.
    pub fn with_lazy_margin(mut self, margin: i32) -> Handcrafted {
        self.lazy_margin = margin.clamp(0, i32::MAX / 4);
        self
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The phase of the full middlegame (all pieces of the start position on the board).
    pub fn phase_max(&self) -> i32 {
        self.phase_max
    }

    /// The tapered phase for a raw phase count ([`PsqState::phase`]): `(2 max - m) m / max` with `m` clamped to
    /// `0..=max`, so the game counts as middlegame for long and turns to endgame when few pieces are left.
    #[inline(always)]
    pub fn phase(&self, raw: i32) -> i32 {
        let m = raw.clamp(0, self.phase_max);
        (2 * self.phase_max - m) * m / self.phase_max
    }

    pub(crate) fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The lazy margin (see [`Handcrafted::evaluate_lazy`]).
    #[inline(always)]
    pub(super) fn lazy_margin(&self) -> i32 {
        self.lazy_margin
    }

    /// The incremental terms of `pos` (material, piece-square sums, phase count) computed from scratch.
    pub fn psq(&self, pos: &Position) -> PsqState {
        self.psq_and_surplus(pos).0
    }

    /// [`Handcrafted::psq`] and the attack counts ([`Extra`]: the strength surplus, Red's
    /// [`Weights::attack_material`] sum minus Black's, and each side's attack units across the river), which an
    /// [`Accumulator`](super::Accumulator) also keeps.
    pub(crate) fn psq_and_surplus(&self, pos: &Position) -> (PsqState, Extra) {
        let w = &self.weights;
        let mut st = PsqState::default();
        let mut attack = Extra::default();
        for color in Color::ALL {
            let c = color.index();
            // One walk over the side's pieces, the kind read from the board: piece-square bonuses summed, pieces
            // counted by kind.
            let tables = &self.pst_packed[c];
            let units = &self.attack_units[c];
            let mut pst = Packed::ZERO;
            let mut counts = [0i32; 7];
            bits::for_each_point_unrolled(pos.color_bb(color), |i| {
                if let Some(p) = Square::from_index(i).and_then(|sq| pos.piece_at(sq)) {
                    pst += tables[p.kind.index()][i];
                    attack.units[c] += units[p.kind.index()][i];
                    attack.files[c][0] ^= bits::FILE_MAJOR[i][0];
                    attack.files[c][1] ^= bits::FILE_MAJOR[i][1];
                    counts[p.kind.index()] += 1;
                }
            });
            st.pst[c] = pst.unpack();
            for (k, &n) in counts.iter().enumerate() {
                st.material[c] += w.material[k] * n;
                st.phase += w.phase_weight[k] * n;
                match color {
                    Color::Red => attack.surplus += w.attack_material[k] * n,
                    Color::Black => attack.surplus -= w.attack_material[k] * n,
                }
            }
        }
        (st, attack)
    }

    /// Updates `st` and the attack counts for `piece` moving from `from` to `to`, capturing `captured`.
    #[inline(always)]
    pub(crate) fn apply_move(
        &self,
        st: &mut PsqState,
        attack: &mut Extra,
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    ) {
        let table = &self.pst[piece.color.index()][piece.kind.index()];
        st.pst[piece.color.index()] += table[to.index()] - table[from.index()];
        let units = &self.attack_units[piece.color.index()][piece.kind.index()];
        attack.units[piece.color.index()] += units[to.index()] - units[from.index()];
        let (f, t) = (&bits::FILE_MAJOR[from.index()], &bits::FILE_MAJOR[to.index()]);
        let files = &mut attack.files[piece.color.index()];
        files[0] ^= f[0] ^ t[0];
        files[1] ^= f[1] ^ t[1];
        if let Some(c) = captured {
            let (ci, ck) = (c.color.index(), c.kind.index());
            st.material[ci] -= self.weights.material[ck];
            st.pst[ci] -= self.pst[ci][ck][to.index()];
            st.phase -= self.weights.phase_weight[ck];
            attack.units[ci] -= self.attack_units[ci][ck][to.index()];
            attack.files[ci][0] ^= t[0];
            attack.files[ci][1] ^= t[1];
            match c.color {
                Color::Red => attack.surplus -= self.weights.attack_material[ck],
                Color::Black => attack.surplus += self.weights.attack_material[ck],
            }
        }
    }

    /// The evaluation of `pos` for the side to move, computed from scratch. Allocates nothing.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_eval::{Handcrafted, EVAL_MAX};
    /// let eval = Handcrafted::default();
    /// let v = eval.evaluate(&Position::startpos());
    /// assert!(v.abs() < 50 && v.abs() <= EVAL_MAX);
    /// ```
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let (st, attack) = self.psq_and_surplus(pos);
        self.evaluate_psq(pos, &st, &attack)
    }

    /// The evaluation from the incremental terms and the attack counts.
    #[inline]
    pub(super) fn evaluate_psq(&self, pos: &Position, st: &PsqState, attack: &Extra) -> i32 {
        let mut net = Net(Packed::ZERO);
        self.collect(pos, st, attack, &mut net);
        self.finish(pos.turn(), net.0.unpack(), st.phase)
    }

    /// The evaluation of `pos` taken apart by term and side.
    pub fn trace(&self, pos: &Position) -> Trace {
        let (st, attack) = self.psq_and_surplus(pos);
        let mut terms = [[TaperedScore::ZERO; 2]; Term::NUM];
        self.collect(pos, &st, &attack, &mut terms);
        let mut trace =
            Trace { turn: pos.turn(), phase: self.phase(st.phase), phase_max: self.phase_max, terms, total: 0 };
        trace.total = self.finish(pos.turn(), trace.sum(), st.phase);
        trace
    }

    #[inline(always)]
    pub(super) fn finish(&self, turn: Color, net: TaperedScore, phase_raw: i32) -> i32 {
        let v = net.taper(self.phase(phase_raw), self.phase_max).clamp(-EVAL_MAX, EVAL_MAX);
        match turn {
            Color::Red => v,
            Color::Black => -v,
        }
    }

    /// Every term of both sides into `sink`.
    #[inline(always)]
    fn collect<S: Sink>(&self, pos: &Position, st: &PsqState, attack: &Extra, sink: &mut S) {
        sink.add_psq(st);
        sink.add(Term::Tempo, pos.turn(), self.packed.tempo);
        let pressure = self.pressures(attack);
        let views = Views::new(pos, attack);
        // One copy per side, so that every colour-dependent mask and shift is a constant.
        self.side_terms::<S, true>(pos, &views, pressure, sink);
        self.side_terms::<S, false>(pos, &views, pressure, sink);
    }

    /// The attack pressure of each side, `0..=attack_max`: attack units of its pieces across the river, plus a bonus
    /// for having more strong pieces than the enemy (ElephantEye's measure of who is attacking), both kept in `attack`
    /// ([`Handcrafted::psq_and_surplus`]).
    #[inline(always)]
    fn pressures(&self, attack: &Extra) -> [i32; 2] {
        let w = &self.weights;
        let (mut units, surplus) = (attack.units, attack.surplus);
        if surplus > 0 {
            units[0] += w.attack_surplus * surplus;
        } else {
            units[1] -= w.attack_surplus * surplus;
        }
        [units[0].clamp(0, self.attack_max), units[1].clamp(0, self.attack_max)]
    }

    /// The positional terms of one side.
    #[inline(always)]
    fn side_terms<S: Sink, const RED: bool>(&self, pos: &Position, v: &Views, pressure: [i32; 2], sink: &mut S) {
        let w = &self.weights;
        let p = &self.packed;
        let us = if RED { Color::Red } else { Color::Black };
        let them = !us;
        let (u, t) = (us.index(), them.index());
        let all = pos.occupied();
        let (own_w, own_h) = (&v.own_w[u], &v.own_h[u]);
        let enemy_king = pos.king(them).index();

        // Soldiers: across the river, supported by an attack, near the palace, side by side.
        // Every mask lies in the enemy half: count in 64 bits. Nothing scores before a soldier crosses the river.
        // The enemy half is the high half window for Red, the low one for Black (what `bits::half_window` reads).
        let far = if RED { 1 } else { 0 };
        let crossed = v.soldiers_h[far] & own_h[far];
        if crossed != 0 {
            let pairs = bits::sparse_count(crossed & (crossed >> 1) & NOT_FILE_I_W[u]) as i32;
            let mut s = p.soldier_crossed * bits::sparse_count(crossed) as i32 + p.soldier_connected * pairs;
            if pressure[u] != 0 {
                let attacking = bits::sparse_count(crossed & SOLDIER_ATTACK_ZONE_W[u]) as i32;
                let near = bits::sparse_count(crossed & PALACE_ZONE_W[u]) as i32;
                s += (w.soldier_attacking * attacking + w.soldier_near_palace * near)
                    .scale(pressure[u], self.attack_max)
                    .into();
            }
            sink.add(Term::Soldiers, us, s);
        }

        // Horses: good destinations, legs considered.
        let horses = pos.pieces(us, PieceKind::Horse);
        if horses.any() {
            let guards = bits::cheap_guards(
                them,
                bits::half_windows(king_attacks(pos.king(them))),
                [v.soldiers_h[0] & v.own_h[t][0], v.soldiers_h[1] & v.own_h[t][1]],
                bits::half_windows(pos.pieces(them, PieceKind::Advisor)),
                bits::half_windows(pos.pieces(them, PieceKind::Elephant)),
                &v.all_h,
                // A horse reaches two ranks forward or back: the enemy's own half only from its relative rank 3 on.
                (horses & HORSE_REACHES_HOME[t]).any(),
            );
            let good = [
                !(own_h[0] | HORSE_POOR_H[0] | guards[0]) & bits::LOW45,
                !(own_h[1] | HORSE_POOR_H[1] | guards[1]) & bits::LOW45,
            ];
            let good_w = bits::halves_to_horse_windows(good);
            let mut s = Packed::ZERO;
            bits::for_each_point(horses, |sq| {
                let n = bits::horse_destinations(sq, &v.all_w, &good_w);
                s += p.horse_mobility[n & 15];
            });
            sink.add(Term::Horses, us, s);
        }

        // Cannons against the king: only cannons on the king's file, or on its rank when it stands on its back
        // rank, score.
        let aligned = pos.pieces(us, PieceKind::Cannon) & bits::CANNON_LINES[t][enemy_king];
        if aligned.any() {
            let king = bits::LINES[enemy_king];
            let mut s = Packed::ZERO;
            bits::for_each_point(aligned, |i| {
                let l = bits::LINES[i];
                if l.file == king.file {
                    let screens = bits::file_of(&v.all_f, king)
                        & bits::BETWEEN_LINE[l.rank as usize][king.rank as usize] as usize;
                    if screens == 0 {
                        let sideways = bits::KING_SIDEWAYS[enemy_king] as usize & !bits::rank_of(&v.all_w, enemy_king);
                        s += if sideways == 0 {
                            let relative = if RED { l.rank as usize } else { 9 - l.rank as usize };
                            p.cannon_hollow[relative]
                        } else {
                            p.cannon_hollow_escapable
                        };
                    } else if bits::exactly_two(screens) {
                        let centre = PALACE_CENTRE[t];
                        let central_horse = king.file == centre.file() as u8
                            && screens >> centre.rank() as usize & 1 != 0
                            && pos.piece_at(centre) == Some(Piece::new(them, PieceKind::Horse));
                        s += if central_horse { p.cannon_central_horse } else { p.cannon_two_screens };
                    }
                } else if bits::rank_of(&v.all_w, enemy_king)
                    & bits::BETWEEN_LINE[l.file as usize][king.file as usize] as usize
                    == 0
                {
                    s += p.cannon_bottom;
                }
            });
            sink.add(Term::Cannons, us, s);
        }

        // Chariots: mobility, open files, pins against the king.
        let chariots = pos.pieces(us, PieceKind::Chariot);
        if chariots.any() {
            let all_soldiers = v.soldiers_h[0] | v.soldiers_h[1];
            let own_soldiers = (v.soldiers_h[0] & own_h[0]) | (v.soldiers_h[1] & own_h[1]);
            // Only a chariot on the king's rank or file can pin.
            let king_lines = bits::LINES_OF[enemy_king];
            let mut s = Packed::ZERO;
            let mut mobility = 0;
            bits::for_each_point(chariots, |i| {
                mobility += bits::chariot_mobility(i, &v.all_w, own_w, &v.all_f, &v.own_f[u]) as i32;
                let file = bits::LINES[i].file;
                if !bits::file_any(all_soldiers, file) {
                    s += p.chariot_open_file;
                } else if !bits::file_any(own_soldiers, file) {
                    s += p.chariot_half_open_file;
                }
            });
            let on_lines = chariots & king_lines;
            if on_lines.any() {
                let pinnable = pos.pieces(them, PieceKind::Horse) | pos.pieces(them, PieceKind::Cannon);
                for sq in on_lines {
                    let between_king = between(sq, pos.king(them)) & all;
                    if (between_king & pinnable).any() && !between_king.more_than_one() {
                        s += p.chariot_pin;
                    }
                }
            }
            s += p.chariot_mobility * mobility;
            sink.add(Term::Chariots, us, s);
        }

        // King safety: missing defenders against the enemy's pressure.
        if pressure[t] > 0 {
            // Only whether there are none, one or (at least) two matters: the full count is two.
            const _: () = assert!(PieceKind::Advisor.max_count() == 2 && PieceKind::Elephant.max_count() == 2);
            let advisors = bits::count_up_to_two(pos.pieces(us, PieceKind::Advisor));
            let elephants = bits::count_up_to_two(pos.pieces(us, PieceKind::Elephant));
            let full_advisors = PieceKind::Advisor.max_count() as i32;
            let full_elephants = PieceKind::Elephant.max_count() as i32;
            let mut penalty = w.advisor_missing * (full_advisors - advisors).max(0)
                + w.elephant_missing * (full_elephants - elephants).max(0);
            if advisors < full_advisors && pos.pieces(them, PieceKind::Chariot).more_than_one() {
                penalty += w.advisor_leak_double_chariot;
            }
            sink.add(Term::KingSafety, us, (-penalty.scale(pressure[t], self.attack_max)).into());
        }
    }
}

impl Evaluate for Handcrafted {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        Handcrafted::evaluate(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_symmetric_and_placed() {
        for sq in Square::all() {
            assert_eq!(HORSE_POOR.contains(sq), HORSE_POOR.contains(sq.mirror_file()));
            assert_eq!(HORSE_POOR.contains(sq), HORSE_POOR.contains(sq.flip_rank()));
            for c in [0, 1] {
                assert_eq!(PALACE_ZONE[c].contains(sq), PALACE_ZONE[c].contains(sq.mirror_file()));
                assert_eq!(PALACE_ZONE[c].contains(sq), PALACE_ZONE[1 - c].contains(sq.flip_rank()));
                assert_eq!(SOLDIER_ATTACK_ZONE[c].contains(sq), SOLDIER_ATTACK_ZONE[1 - c].contains(sq.flip_rank()));
                assert_eq!(ENEMY_HALF[c].contains(sq), ENEMY_HALF[1 - c].contains(sq.flip_rank()));
            }
        }
        assert_eq!(HORSE_POOR.count(), 2 * 9 + 2 * 8 + 2);
        assert!(PALACE_ZONE[0].contains("e8".parse().unwrap()) && !PALACE_ZONE[0].contains("e9".parse().unwrap()));
        assert!(PALACE_ZONE[1].contains("c1".parse().unwrap()) && !PALACE_ZONE[1].contains("b1".parse().unwrap()));
        assert_eq!(SOLDIER_ATTACK_ZONE[0].count(), 4 * 9);
        assert_eq!(PALACE_CENTRE[1].flip_rank(), PALACE_CENTRE[0]);
    }

    #[test]
    fn phase_is_full_at_the_start_and_zero_with_kings_only() {
        let eval = Handcrafted::default();
        let start = eval.psq(&Position::startpos());
        assert_eq!(start.phase, eval.phase_max());
        assert_eq!(eval.phase(start.phase), eval.phase_max());
        let kings = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert_eq!(eval.phase(eval.psq(&kings).phase), 0);
        // Quadratic: half the material left is still three quarters of the middlegame.
        assert_eq!(eval.phase(eval.phase_max() / 2), eval.phase_max() * 3 / 4);
    }

    #[test]
    fn pressure_counts_crossed_pieces_and_surplus() {
        let eval = Handcrafted::default();
        let pressures = |pos: &Position| eval.pressures(&eval.psq_and_surplus(pos).1);
        assert_eq!(pressures(&Position::startpos()), [0, 0]);
        // Red chariot and horse across the river, Black has nothing: 2 + 2 units, plus a surplus of 3 strength.
        let pos = Position::from_fen("3k5/9/1N7/9/R8/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(eval.psq_and_surplus(&pos).1.surplus, 3);
        assert_eq!(pressures(&pos), [8, 0]);
        let pos = Position::from_fen("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(pressures(&pos), [2 + 2 * 2, 0]);
    }
}
