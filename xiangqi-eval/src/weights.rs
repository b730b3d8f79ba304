//! [`Weights`]: every number of the evaluation in one table, with [`Weights::DEFAULT`].
//!
//! The default values follow ElephantEye 3.3 (www.xqbase.com): its piece-square tables (which fold the material
//! value in) were split into a base value per kind plus a square bonus, scaled by 4.5 to centipawn-like units
//! (a chariot is about 950 in the middlegame), and its threat-dependent tables ("attacking" versus "attackless"
//! soldiers, "threatened" advisors and elephants) became explicit terms scaled by the attack pressure. The horse and
//! cannon base values were shaded toward the common wisdom that the cannon is the stronger piece early and the horse
//! the stronger one late.

use crate::score::TaperedScore;
use xiangqi_core::PieceKind;

const fn s(mg: i32, eg: i32) -> TaperedScore {
    TaperedScore::new(mg, eg)
}

/// Zero: for points a piece can never reach.
const Z: TaperedScore = TaperedScore::ZERO;

/// A piece-square table seen from its owner's side: `[relative rank][half file]`.
///
/// The relative rank counts from the owner's back rank (0) to the enemy's back rank (9); the half file is the
/// distance-from-the-edge file `min(f, 8 - f)`, so files a and i share column 0 and the central file e is column 4.
/// A table of this shape cannot tell left from right: mirror symmetry holds by construction. Black reads Red's
/// table with ranks turned.
pub type Pst = [[TaperedScore; 5]; 10];

/// Every weight of the evaluation, in one place, so that a tuner can read and write them all
/// ([`Weights::to_vec`], [`Weights::set_from_slice`], [`Weights::visit_mut`]).
///
/// Arrays indexed by piece kind use [`PieceKind::index`] (king, advisor, elephant, horse, chariot, cannon, soldier).
/// Terms that depend on the attack pressure are multiplied by `pressure / attack_max`, where the pressure of a side
/// (0 to `attack_max`) counts its pieces across the river and its surplus of strong pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    /// Base value of each kind.
    pub material: [TaperedScore; 7],
    /// Square bonus of each kind on top of its base value (see [`Pst`]).
    pub pst: [Pst; 7],
    /// Weight of each kind in the game phase: the phase is full middlegame when every piece of the start position is on
    /// the board and falls (quadratically, as in ElephantEye) as they are traded.
    pub phase_weight: [i32; 7],
    /// Bonus for the side to move.
    pub tempo: TaperedScore,
    /// Bonus per soldier across the river.
    pub soldier_crossed: TaperedScore,
    /// Bonus per soldier across the river but not yet on the last rank, scaled by the side's attack pressure: a
    /// soldier is worth more when pieces support its advance.
    pub soldier_attacking: TaperedScore,
    /// Bonus per soldier close to the enemy palace (files c-g, relative ranks 6-8), scaled by attack pressure.
    pub soldier_near_palace: TaperedScore,
    /// Bonus per pair of side-by-side soldiers across the river.
    pub soldier_connected: TaperedScore,
    /// Horse bonus by the number of its good destinations (0 to 8): its leg not blocked, not an own piece, not the
    /// board's edge or a palace centre, not guarded by an enemy soldier, advisor, elephant or king.
    pub horse_mobility: [TaperedScore; 9],
    /// Empty-headed cannon: a cannon on the enemy king's file with nothing between, when the king cannot step
    /// sideways; indexed by the cannon's relative rank.
    pub cannon_hollow: [TaperedScore; 10],
    /// Empty-headed cannon when the king still has a sideways step.
    pub cannon_hollow_escapable: TaperedScore,
    /// A cannon on the enemy king's file with exactly two pieces between (it pins both).
    pub cannon_two_screens: TaperedScore,
    /// The same when one of the two is the enemy's own horse on its palace centre (the smothered "central horse").
    pub cannon_central_horse: TaperedScore,
    /// Bottom cannon: a cannon on the enemy king's rank, the king on its back rank, nothing between.
    pub cannon_bottom: TaperedScore,
    /// Chariot bonus per point it attacks that does not hold an own piece.
    pub chariot_mobility: TaperedScore,
    /// A chariot on a file without soldiers.
    pub chariot_open_file: TaperedScore,
    /// A chariot on a file with enemy soldiers but none of its own.
    pub chariot_half_open_file: TaperedScore,
    /// A chariot pinning an enemy horse or cannon against the enemy king.
    pub chariot_pin: TaperedScore,
    /// Penalty per missing advisor, scaled by the enemy's attack pressure.
    pub advisor_missing: TaperedScore,
    /// Penalty per missing elephant, scaled by the enemy's attack pressure.
    pub elephant_missing: TaperedScore,
    /// Extra penalty for missing an advisor against two enemy chariots, scaled by the enemy's attack pressure.
    pub advisor_leak_double_chariot: TaperedScore,
    /// Attack units per piece of each kind across the river.
    pub attack_unit: [i32; 7],
    /// Strength of each kind for the surplus count of [`Weights::attack_surplus`].
    pub attack_material: [i32; 7],
    /// Attack units per unit of strength surplus over the enemy.
    pub attack_surplus: i32,
    /// The most attack units that count: full pressure. Must be positive.
    pub attack_max: i32,
}

impl Weights {
    /// The default weights.
    pub const DEFAULT: Weights = Weights {
        //        king     advisor     elephant    horse         chariot       cannon        soldier
        material: [Z, s(90, 90), s(90, 90), s(420, 450), s(950, 820), s(460, 420), s(45, 125)],
        pst: [KING_PST, ADVISOR_PST, ELEPHANT_PST, HORSE_PST, CHARIOT_PST, CANNON_PST, SOLDIER_PST],
        phase_weight: [0, 1, 1, 3, 6, 3, 1],
        tempo: s(18, 0),
        soldier_crossed: s(45, 35),
        soldier_attacking: s(90, 180),
        soldier_near_palace: s(55, 0),
        soldier_connected: s(15, 25),
        horse_mobility: [s(-45, -45), s(-22, -22), s(-6, -6), Z, s(4, 4), s(8, 8), s(11, 11), s(13, 13), s(15, 15)],
        cannon_hollow: [
            s(360, 180),
            s(360, 180),
            s(360, 180),
            s(338, 169),
            s(315, 158),
            s(293, 146),
            s(270, 135),
            Z,
            Z,
            Z,
        ],
        cannon_hollow_escapable: s(60, 30),
        cannon_two_screens: s(40, 20),
        cannon_central_horse: s(160, 160),
        cannon_bottom: s(80, 40),
        chariot_mobility: s(4, 5),
        chariot_open_file: s(20, 10),
        chariot_half_open_file: s(10, 5),
        chariot_pin: s(50, 30),
        advisor_missing: s(90, 70),
        elephant_missing: s(90, 70),
        advisor_leak_double_chariot: s(360, 360),
        attack_unit: [0, 0, 0, 2, 2, 1, 1],
        attack_material: [0, 0, 0, 1, 2, 1, 0],
        attack_surplus: 2,
        attack_max: 8,
    };

    /// Calls `f` with the name of its field and a mutable reference for every number, in a fixed order: fields in
    /// declaration order, arrays in index order (a [`Pst`] rank by rank), a [`TaperedScore`] as `mg` then `eg`. Elements of
    /// an array share their field's name.
    pub fn visit_mut(&mut self, mut f: impl FnMut(&'static str, &mut i32)) {
        fn score(f: &mut impl FnMut(&'static str, &mut i32), name: &'static str, s: &mut TaperedScore) {
            f(name, &mut s.mg);
            f(name, &mut s.eg);
        }
        fn scores<'a>(
            f: &mut impl FnMut(&'static str, &mut i32),
            name: &'static str,
            it: impl IntoIterator<Item = &'a mut TaperedScore>,
        ) {
            it.into_iter().for_each(|s| score(f, name, s));
        }
        let f = &mut f;
        scores(f, "material", &mut self.material);
        scores(f, "pst", self.pst.iter_mut().flatten().flatten());
        self.phase_weight.iter_mut().for_each(|v| f("phase_weight", v));
        score(f, "tempo", &mut self.tempo);
        score(f, "soldier_crossed", &mut self.soldier_crossed);
        score(f, "soldier_attacking", &mut self.soldier_attacking);
        score(f, "soldier_near_palace", &mut self.soldier_near_palace);
        score(f, "soldier_connected", &mut self.soldier_connected);
        scores(f, "horse_mobility", &mut self.horse_mobility);
        scores(f, "cannon_hollow", &mut self.cannon_hollow);
        score(f, "cannon_hollow_escapable", &mut self.cannon_hollow_escapable);
        score(f, "cannon_two_screens", &mut self.cannon_two_screens);
        score(f, "cannon_central_horse", &mut self.cannon_central_horse);
        score(f, "cannon_bottom", &mut self.cannon_bottom);
        score(f, "chariot_mobility", &mut self.chariot_mobility);
        score(f, "chariot_open_file", &mut self.chariot_open_file);
        score(f, "chariot_half_open_file", &mut self.chariot_half_open_file);
        score(f, "chariot_pin", &mut self.chariot_pin);
        score(f, "advisor_missing", &mut self.advisor_missing);
        score(f, "elephant_missing", &mut self.elephant_missing);
        score(f, "advisor_leak_double_chariot", &mut self.advisor_leak_double_chariot);
        self.attack_unit.iter_mut().for_each(|v| f("attack_unit", v));
        self.attack_material.iter_mut().for_each(|v| f("attack_material", v));
        f("attack_surplus", &mut self.attack_surplus);
        f("attack_max", &mut self.attack_max);
    }

    /// Every number, in the order of [`Weights::visit_mut`].
    ///
    /// ```
    /// use xiangqi_eval::Weights;
    /// let mut w = Weights::DEFAULT;
    /// let mut v = w.to_vec();
    /// v[2 * 4] += 100; // the chariot's middlegame base value (material[4].mg)
    /// w.set_from_slice(&v).unwrap();
    /// assert_eq!(w.material[4].mg, Weights::DEFAULT.material[4].mg + 100);
    /// ```
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(Weights::num_params());
        self.clone().visit_mut(|_, x| v.push(*x));
        v
    }

    /// Sets every number from `values`, in the order of [`Weights::visit_mut`]. Fails, changing nothing, when the
    /// length is not [`Weights::num_params`].
    pub fn set_from_slice(&mut self, values: &[i32]) -> Result<(), WrongLength> {
        let expected = Weights::num_params();
        if values.len() != expected {
            return Err(WrongLength { expected, got: values.len() });
        }
        let mut it = values.iter();
        self.visit_mut(|_, x| *x = *it.next().expect("length checked"));
        Ok(())
    }

    /// How many numbers [`Weights::visit_mut`] visits.
    pub fn num_params() -> usize {
        let mut n = 0;
        Weights::DEFAULT.clone().visit_mut(|_, _| n += 1);
        n
    }

    /// The base value of `kind`.
    #[inline(always)]
    pub fn material_of(&self, kind: PieceKind) -> TaperedScore {
        self.material[kind.index()]
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// A slice given to [`Weights::set_from_slice`] has the wrong length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongLength {
    /// How many numbers the weights have.
    pub expected: usize,
    /// How many were given.
    pub got: usize,
}

impl std::fmt::Display for WrongLength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "expected {} weights, got {}", self.expected, self.got)
    }
}

impl std::error::Error for WrongLength {}

// The tables below list relative rank 0 (the owner's back rank) first, files a..e left to right.

const KING_PST: Pst = [
    [Z, Z, Z, s(50, 5), s(68, 50)],
    [Z, Z, Z, s(9, 14), s(9, 59)],
    [Z, Z, Z, s(5, 23), s(5, 68)],
    [Z; 5],
    [Z; 5],
    [Z; 5],
    [Z; 5],
    [Z; 5],
    [Z; 5],
    [Z; 5],
];

const ADVISOR_PST: Pst =
    [[Z, Z, Z, Z, Z], [Z, Z, Z, Z, s(14, 14)], [Z, Z, Z, Z, Z], [Z; 5], [Z; 5], [Z; 5], [Z; 5], [Z; 5], [Z; 5], [Z; 5]];

const ELEPHANT_PST: Pst = [
    [Z, Z, Z, Z, Z],
    [Z; 5],
    [s(-9, -9), Z, Z, Z, s(14, 14)],
    [Z; 5],
    [Z, Z, Z, Z, Z],
    [Z; 5],
    [Z; 5],
    [Z; 5],
    [Z; 5],
    [Z; 5],
];

const HORSE_PST: Pst = [
    [s(-34, -34), s(-47, -25), s(-25, -16), s(-34, -25), s(-25, -25)],
    [s(-47, -25), s(-25, -16), s(-16, -7), s(-11, -16), s(-79, -16)],
    [s(-11, -16), s(-16, -7), s(-7, 2), s(-2, 2), s(-16, 2)],
    [s(-16, -7), s(-7, 2), s(11, 11), s(-2, 11), s(11, 11)],
    [s(-25, -7), s(11, 2), s(25, 11), s(29, 11), s(34, 11)],
    [s(-25, 2), s(20, 11), s(16, 20), s(34, 20), s(38, 20)],
    [s(-11, 2), s(56, 11), s(20, 20), s(52, 20), s(20, 20)],
    [s(-16, 2), s(11, 11), s(16, 20), s(34, 20), s(16, 20)],
    [s(-25, -7), s(2, 2), s(34, 11), s(7, 11), s(-7, 11)],
    [s(-25, -16), s(-25, -7), s(-25, 2), s(2, 2), s(-25, 2)],
];

const CHARIOT_PST: Pst = [
    [s(-77, -10), s(-23, -10), s(-32, -10), s(4, -1), s(-50, 8)],
    [s(-50, -10), s(-14, -10), s(-23, -10), s(4, -1), s(-50, 8)],
    [s(-59, -10), s(-14, -10), s(-32, -10), s(4, -1), s(4, 8)],
    [s(-32, -10), s(-9, -10), s(-32, -10), s(4, -1), s(13, 8)],
    [s(-14, -10), s(4, -10), s(4, -10), s(13, -1), s(18, 8)],
    [s(-14, -10), s(0, -10), s(0, -10), s(13, -1), s(18, 8)],
    [s(-23, -10), s(9, -10), s(9, -10), s(22, -1), s(22, 8)],
    [s(-23, -1), s(-14, -1), s(-18, -1), s(13, 8), s(22, 17)],
    [s(-23, 8), s(4, 8), s(-9, 8), s(22, 17), s(99, 35)],
    [s(-23, -1), s(-14, -1), s(-18, -1), s(9, 8), s(13, 17)],
];

const CANNON_PST: Pst = [
    [s(-8, -5), s(-8, -5), s(-3, -5), s(6, 13), s(6, 22)],
    [s(-8, -5), s(-3, -5), s(1, -5), s(1, 13), s(1, 22)],
    [s(-3, -5), s(-8, -5), s(10, -5), s(6, 4), s(15, 13)],
    [s(-8, -5), s(-8, -5), s(-8, -5), s(-8, 4), s(-8, 13)],
    [s(-12, -5), s(-8, -5), s(6, -5), s(-8, 4), s(10, 13)],
    [s(-8, -5), s(-8, -5), s(-8, -5), s(-8, 4), s(10, 13)],
    [s(-8, -5), s(6, -5), s(6, -5), s(1, 4), s(10, 13)],
    [s(-3, -5), s(-3, -5), s(-8, -5), s(-30, -5), s(-26, -5)],
    [s(1, -5), s(1, -5), s(-8, -5), s(-26, -5), s(-39, -5)],
    [s(10, -5), s(10, -5), s(-8, -5), s(-30, -5), s(-35, -5)],
];

const SOLDIER_PST: Pst = [
    [Z; 5],
    [Z; 5],
    [Z; 5],
    [s(-13, -35), Z, s(-13, -35), Z, s(23, -35)],
    [s(-13, -12), Z, s(14, -12), Z, s(27, -12)],
    [s(-27, -47), s(-9, -25), s(0, -25), s(32, -2), s(41, -2)],
    [s(-4, -2), s(14, 20), s(32, 20), s(41, 43), s(45, 43)],
    [s(-4, -47), s(18, -25), s(54, -25), s(77, -2), s(77, -2)],
    [s(-4, -115), s(18, -92), s(63, -70), s(99, 43), s(108, 110)],
    [s(-49, -115), s(-49, -115), s(-49, -115), s(-40, -92), s(-31, -92)],
];
