//! `xiangqi_core::Position` as a [`GameTree`] with every [`FastPaths`] hook.

use crate::game::{mated_in, FastPaths, GameTree, MoveBuf, Rule, Score, MATE};
use xiangqi_core::rules::{judge, Judgement, Verdict};
use xiangqi_core::{Bitboard, KingSafety, Move, PieceKind, Position};
use xiangqi_movegen::{generate, generate_lazy_with, generate_pseudo_captures, GenType};

/// Ordering value of a piece as a victim or an attacker (MVV-LVA).
const fn order_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 7,
        PieceKind::Chariot => 6,
        PieceKind::Cannon => 5,
        PieceKind::Horse => 4,
        PieceKind::Elephant => 2,
        PieceKind::Advisor => 2,
        PieceKind::Soldier => 1,
    }
}

impl GameTree for Position {
    type Move = Move;
    const MOVE_KEYS: usize = 90 << 7;

    /// The packed move without its flag bit (`from << 7 | to`): no arithmetic.
    #[inline(always)]
    fn move_key(m: Move) -> usize {
        (m.raw() & 0x3FFF) as usize
    }

    #[inline(always)]
    fn encode_move(m: Move) -> u16 {
        m.raw()
    }

    #[inline(always)]
    fn last_move(&self) -> Option<Move> {
        self.moves_played().next_back().flatten()
    }

    /// Pikafish's rule judge from `xiangqi-core`: repetition (with perpetual check and chase, scored as a loss for
    /// the violator), the 60-move rule and insufficient material.
    #[inline]
    fn rules(&mut self, ply: usize) -> Rule {
        match judge(self, ply) {
            None => Rule::Continue,
            Some(Judgement::Decided(r)) => Rule::Decided(match r.verdict {
                Verdict::Win => MATE - ply as Score,
                Verdict::Loss => mated_in(ply),
                Verdict::Draw => 0,
            }),
            Some(Judgement::Leaning(Verdict::Win)) => Rule::AtLeastDraw,
            Some(Judgement::Leaning(Verdict::Loss)) => Rule::AtMostDraw,
            Some(Judgement::Leaning(Verdict::Draw)) => Rule::Continue,
        }
    }

    #[inline(always)]
    fn generate(&self, captures_only: bool, out: &mut MoveBuf<Move>) {
        generate(self, if captures_only { GenType::Captures } else { GenType::All }, out);
    }

    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.make_move(m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.unmake_move();
    }

    #[inline(always)]
    fn make_null(&mut self) {
        self.make_null_move();
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    /// Allowed while the side to move keeps an attacking piece (chariot, horse or cannon): without one, zugzwang
    /// is common in xiangqi endgames.
    #[inline]
    fn null_move_allowed(&self) -> bool {
        let us = self.turn();
        (self.pieces(us, PieceKind::Chariot) | self.pieces(us, PieceKind::Horse) | self.pieces(us, PieceKind::Cannon))
            .any()
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        self.key()
    }

    #[inline(always)]
    fn first_player_to_move(&self) -> bool {
        self.turn() == xiangqi_core::Color::Red
    }

    /// No legal move loses in xiangqi, in check or not.
    #[inline(always)]
    fn no_moves_score(&self, ply: usize) -> Score {
        mated_in(ply)
    }

    #[inline(always)]
    fn is_quiet(&self, m: Move) -> bool {
        self.piece_at(m.to()).is_none()
    }

    /// MVV-LVA, with captures of a cheaper piece on a point the opponent defends marked as losing (negative).
    #[inline]
    fn capture_key(&self, m: Move) -> i32 {
        let (Some(victim), Some(attacker)) = (self.piece_at(m.to()), self.piece_at(m.from())) else { return 0 };
        let (v, a) = (order_value(victim.kind), order_value(attacker.kind));
        let key = v * 8 + 8 - a;
        if v >= a {
            return key;
        }
        let occ = self.occupancy().without(m.from());
        let defended = self.is_attacked(m.to(), victim.color, !Bitboard::from_square(m.to()), &occ);
        if defended {
            key - 64
        } else {
            key
        }
    }
}

impl FastPaths for Position {
    type Legality = KingSafety;

    #[inline(always)]
    fn legality(&self) -> KingSafety {
        self.king_safety()
    }

    #[inline(always)]
    fn generate_lazy(&self, ks: &KingSafety, kind: GenType, out: &mut MoveBuf<Move>) {
        generate_lazy_with(self, ks, kind, out);
    }

    #[inline(always)]
    fn is_legal_generated(&self, ks: &KingSafety, m: Move) -> bool {
        self.is_safe_with(ks, m.from(), m.to())
    }

    #[inline]
    fn decode_legal(&self, code: u16) -> Option<Move> {
        let m = Move::from_raw(code)?;
        self.is_legal(m).then_some(m)
    }

    #[inline]
    fn decode_with(&self, ks: &KingSafety, code: u16) -> Option<Move> {
        let m = Move::from_raw(code)?;
        (self.is_pseudo_legal(m) && self.is_safe_with(ks, m.from(), m.to())).then_some(m)
    }

    #[inline(always)]
    fn generate_captures_unchecked(&self, out: &mut MoveBuf<Move>) {
        generate_pseudo_captures(self, out);
    }

    #[inline(always)]
    fn is_legal_capture(&self, m: Move) -> bool {
        self.is_legal_pseudo(m)
    }

    #[inline(always)]
    fn gives_check(&self, m: Move) -> bool {
        Position::gives_check(self, m)
    }

    #[inline(always)]
    fn see_ge(&self, m: Move, threshold: Score) -> bool {
        Position::see_ge(self, m, threshold)
    }

    #[inline(always)]
    fn hash_after(&self, m: Move) -> Option<u64> {
        Some(self.key_after(m))
    }

    /// 14 pieces on 90 points.
    const PIECE_TO_KEYS: usize = 14 * 90;

    #[inline(always)]
    fn piece_to_key(&self, m: Move) -> usize {
        self.piece_at(m.from()).map_or(0, |p| p.index() * 90 + m.to().index())
    }

    /// The captured piece's kind plus one.
    const VICTIM_KINDS: usize = 8;

    #[inline(always)]
    fn victim_kind(&self, m: Move) -> usize {
        self.piece_at(m.to()).map_or(0, |p| p.kind.index() + 1)
    }

    /// The soldiers of both sides (their points and colours), and the count of each kind of piece of each side,
    /// each mixed into 64 bits by multiplication.
    #[inline]
    fn structure_keys(&self) -> [u64; 2] {
        let mut soldiers = 0u64;
        let mut material = 0u64;
        for color in [xiangqi_core::Color::Red, xiangqi_core::Color::Black] {
            for kind in PieceKind::ALL {
                let bb = self.pieces(color, kind);
                let count = bb.count() as u64;
                material = material.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(count + 1);
                if kind == PieceKind::Soldier {
                    let bits = bb.bits();
                    soldiers ^= ((bits as u64) ^ ((bits >> 64) as u64).rotate_left(17))
                        .wrapping_mul(0xD6E8_FEB8_6659_FD93)
                        .rotate_left(color as u32 * 29);
                }
            }
        }
        [soldiers ^ (soldiers >> 31), material ^ (material >> 29)]
    }
}
