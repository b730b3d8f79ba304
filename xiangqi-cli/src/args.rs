//! Command-line values checked with messages a user can act on.

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use std::ffi::OsStr;
use std::marker::PhantomData;

/// A whole number from `lo` to `hi`, read as type `T`. Out of range, it answers "depth must be at least 1" (the
/// flag's name, then the bound), not clap's "0 is not in 1..18446744073709551615"; a negative number or a word
/// gets the same kind of message. Give the flag `allow_hyphen_values = true` so that `-1` reaches the check
/// instead of being taken for a flag.
#[derive(Debug)]
pub struct Range<T> {
    lo: u64,
    hi: u64,
    /// No upper bound but the type's.
    open: bool,
    kind: PhantomData<fn() -> T>,
}

impl<T> Clone for Range<T> {
    fn clone(&self) -> Self {
        Range { kind: PhantomData, ..*self }
    }
}

/// Numbers from `lo` to `hi`, inclusive.
pub fn range<T>(lo: u64, hi: u64) -> Range<T> {
    Range { lo, hi, open: false, kind: PhantomData }
}

/// Depths of a search from `lo` to [`xiangqi_search::MAX_DEPTH`], the one limit every front end checks a depth
/// against (the searcher's stack and the extensions below the nominal depth set it; see its doc).
pub fn depth<T>(lo: u64) -> Range<T> {
    range(lo, u64::from(xiangqi_search::MAX_DEPTH))
}

/// The range of the engine option `decl` (a `spin` option of [`xiangqi_search::options`]): a flag that makes the same
/// setting takes the same values as the option.
pub fn option_range<T>(decl: xiangqi_search::options::OptionDecl) -> Range<T> {
    let (_, lo, hi) = decl.spin();
    range(lo.max(0) as u64, hi.max(0) as u64)
}

/// The default of the engine option `decl` (a `spin` option), for a flag that makes the same setting.
pub const fn option_default(decl: xiangqi_search::options::OptionDecl) -> u64 {
    decl.spin().0 as u64
}

/// Numbers from `lo` up to the largest `T`.
pub fn at_least<T: TryFrom<u64>>(lo: u64) -> Range<T> {
    let hi = if T::try_from(u64::MAX).is_ok() { u64::MAX } else { u64::from(u32::MAX) };
    Range { lo, hi, open: true, kind: PhantomData }
}

impl<T> Range<T> {
    /// The number `text` gives, or what is wrong with it, naming the value `name`.
    fn check(&self, text: &str, name: &str) -> Result<u64, String> {
        let (lo, hi) = (self.lo, self.hi);
        let want = if self.open { format!("at least {lo}") } else { format!("from {lo} to {hi}") };
        match text.trim().parse::<i128>() {
            Ok(n) if n < 0 && lo > 0 => Err(format!("{name} must be positive ({want})")),
            Ok(n) if n < i128::from(lo) => Err(format!("{name} must be at least {lo}")),
            Ok(n) if n > i128::from(hi) => Err(format!("{name} must be at most {hi}")),
            Ok(n) => Ok(n as u64),
            Err(_) => Err(format!("{name} must be a whole number {want}")),
        }
    }
}

impl<T: TryFrom<u64> + Clone + Send + Sync + 'static> TypedValueParser for Range<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let flag = arg.and_then(|a| a.get_long()).unwrap_or("value");
        let name = flag.replace('-', " ");
        let text = value.to_string_lossy();
        self.check(&text, &name)
            .and_then(|n| T::try_from(n).map_err(|_| format!("{name} must be at most {}", self.hi)))
            // Formatted with the command, as clap's own usage errors are: the usage and the hint to `--help`.
            .map_err(|msg| {
                cmd.clone().error(ErrorKind::ValueValidation, format!("invalid value '{text}' for --{flag}: {msg}"))
            })
    }
}

/// `--shard I --shards N`: which part of a run a command does.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ShardOpts {
    /// Do only shard I (from 0) of the run, into the directory of --out, with a manifest (needs --shards).
    #[arg(long, value_name = "I", requires = "shards")]
    pub shard: Option<u64>,
    /// The number of shards the run is cut into (needs --shard).
    #[arg(long, value_name = "N", requires = "shard")]
    pub shards: Option<u64>,
}

impl ShardOpts {
    /// The shard asked for, if any; an index out of range or no shard at all is an error that names it.
    pub fn shard(&self) -> Result<Option<xiangqi_match::shard::Shard>, String> {
        match (self.shard, self.shards) {
            (Some(index), Some(count)) => xiangqi_match::shard::Shard::new(index, count).map(Some).map_err(|e| e.0),
            (None, None) => Ok(None),
            _ => Err("--shard and --shards go together".to_owned()),
        }
    }
}

/// Parses the words of `--sprt`; an error names the flag.
pub fn parse_sprt(words: &[String]) -> Result<xiangqi_match::Sprt, String> {
    xiangqi_match::Sprt::parse(words).map_err(|e| format!("--sprt: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_flag_and_the_bound() {
        let depth = range::<u32>(1, 12);
        assert_eq!(depth.check("0", "depth").unwrap_err(), "depth must be at least 1");
        assert_eq!(depth.check("-1", "depth").unwrap_err(), "depth must be positive (from 1 to 12)");
        assert_eq!(depth.check("13", "depth").unwrap_err(), "depth must be at most 12");
        assert_eq!(depth.check("x", "depth").unwrap_err(), "depth must be a whole number from 1 to 12");
        assert_eq!(depth.check("7", "depth"), Ok(7));
        let nodes = at_least::<u64>(1);
        assert_eq!(nodes.check("0", "nodes").unwrap_err(), "nodes must be at least 1");
        assert_eq!(
            nodes.check("99999999999999999999", "nodes").unwrap_err(),
            "nodes must be at most 18446744073709551615"
        );
        assert_eq!(at_least::<u32>(0).check("-3", "games").unwrap_err(), "games must be at least 0");
        assert_eq!(nodes.check("5", "nodes"), Ok(5));
    }
}
