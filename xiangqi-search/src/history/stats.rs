//! What every history table shares, as Stockfish's `StatsEntry` and `stat_bonus` (`history.h`): an entry learns
//! with gravity within a bound, from a bonus that grows with the depth of the cutoff.

/// How the histories of a search learn: the bound of an entry and the bonus of a cutoff. The spec's scale by
/// default (a bonus of depth squared up to [`Scale::MAX_BONUS`] under a bound of [`Scale::HISTORY_MAX`], so far
/// from the bound that gravity hardly acts), or `hscale`'s
/// ([`crate::techniques::history_scale::HistoryScale`]: bounded near 2^14, bonuses linear in depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale {
    bound: i32,
    /// `hscale`'s bonus per ply of depth and largest bonus; `None`: the spec's.
    linear: Option<(i32, i32)>,
}

impl Default for Scale {
    fn default() -> Self {
        Scale { bound: Self::HISTORY_MAX, linear: None }
    }
}

impl Scale {
    /// The bound of a history score at the spec's scale, in either direction.
    pub const HISTORY_MAX: i32 = 1 << 20;
    /// The largest bonus at the spec's scale (a cutoff at depth 20 or more).
    pub const MAX_BONUS: i32 = 400;

    /// The spec's scale for `None`; for `Some((bound, bonus per ply, largest bonus))`, `hscale`'s
    /// ([`crate::techniques::history_scale::HistoryScale::scale`]).
    pub fn new(hscale: Option<(i32, i32, i32)>) -> Scale {
        match hscale {
            Some((bound, per_ply, max)) => Scale { bound: bound.max(1), linear: Some((per_ply, max.min(bound))) },
            None => Scale::default(),
        }
    }

    /// The bound of a score.
    #[inline(always)]
    pub fn bound(&self) -> i32 {
        self.bound
    }

    /// The bonus of a cutoff with `depth` plies left: depth squared up to [`Scale::MAX_BONUS`], or `hscale`'s
    /// linear bonus.
    #[inline(always)]
    pub fn bonus(&self, depth: i32) -> Bonus {
        let amount = match self.linear {
            None => (depth * depth).min(Self::MAX_BONUS),
            Some((per_ply, max)) => (per_ply * depth).min(max),
        };
        Bonus { amount, bound: self.bound }
    }
}

/// One update of a history entry: an amount (negative for a malus) and the bound gravity keeps the entry within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bonus {
    amount: i32,
    bound: i32,
}

impl Bonus {
    /// The malus of the same size (for the moves tried before the one that caused the cutoff).
    #[inline(always)]
    pub fn malus(self) -> Bonus {
        Bonus { amount: -self.amount, bound: self.bound }
    }

    /// Adds the amount to the entry `h`, with gravity: `h` moves by `b - h * |b| / bound`, so it stays within the
    /// bound and a run of opposite updates brings it back.
    #[inline(always)]
    pub fn apply(self, h: &mut i32) {
        let b = self.amount as i64;
        *h += (b - *h as i64 * b.abs() / self.bound as i64) as i32;
    }
}

/// Sizes `table` to `len` zeroed entries when `on` (kept as it is when it has that size already), and frees it
/// when not: a table a variant does not use costs nothing.
pub(crate) fn switch<T: Copy + Default>(table: &mut Vec<T>, on: bool, len: usize) {
    if !on {
        table.clear();
        table.shrink_to_fit();
    } else if table.len() != len {
        *table = vec![T::default(); len];
    }
}

#[cfg(test)]
mod tests {
    use super::{Bonus, Scale};

    /// Gravity keeps a score within its bound, whatever the bonuses, and a run of opposite bonuses brings it back
    /// across zero within a few updates at the bounded scale (a recent average), not at the spec's.
    #[test]
    fn gravity_bounds_scores_and_forgets_at_the_bounded_scale() {
        for (bound, amount) in [(Scale::HISTORY_MAX, Scale::MAX_BONUS), (16384, 1600), (2048, 2048)] {
            let bonus = Bonus { amount, bound };
            let mut h = 0;
            for _ in 0..10_000 {
                bonus.apply(&mut h);
                assert!((0..=bound).contains(&h), "{h} out of 0..={bound}");
            }
            let mut flips = 0;
            while h > 0 {
                bonus.malus().apply(&mut h);
                assert!(h >= -bound);
                flips += 1;
            }
            if bound == 16384 {
                assert!(flips <= 10, "{flips} updates to forget at the bounded scale");
            } else if bound == Scale::HISTORY_MAX {
                assert!(flips > 1000, "{flips} updates to forget at the spec's scale");
            }
        }
    }

    /// The two scales' bonuses: depth squared up to 400 (the spec's), linear up to the largest (`hscale`'s), and
    /// the largest bonus never above the bound.
    #[test]
    fn bonuses_follow_the_scale() {
        let spec = Scale::default();
        assert_eq!(spec.bonus(3), Bonus { amount: 9, bound: Scale::HISTORY_MAX });
        assert_eq!(spec.bonus(30).amount, Scale::MAX_BONUS);
        let linear = Scale::new(Some((16384, 160, 1600)));
        assert_eq!(linear.bonus(3), Bonus { amount: 480, bound: 16384 });
        assert_eq!(linear.bonus(30).amount, 1600);
        assert_eq!(Scale::new(Some((1000, 160, 1600))).bonus(30).amount, 1000);
    }
}
