//! The node part: each distinct variant searched on the bench positions, as `xiangqi bench --variant V` does.

use super::plan::{short, Plan};
use std::collections::BTreeMap;

/// The node part of one variant.
#[derive(Debug, Clone)]
pub(super) struct Nodes {
    pub(super) per_position: Vec<u64>,
    pub(super) total: u64,
    pub(super) seconds: f64,
}

/// The node part: each distinct variant searched on the bench positions.
pub(super) fn node_part(plan: &Plan, depth: u32, hash: usize) -> Result<BTreeMap<String, Nodes>, String> {
    let mut out = BTreeMap::new();
    let specs = std::iter::once(plan.base).chain(plan.pairings.iter().flat_map(|p| [p.with, p.without]));
    for variant in specs {
        let name = variant.to_string();
        if out.contains_key(&name) {
            continue;
        }
        let r = xiangqi_search::bench::bench(&variant, depth, hash, 1, xiangqi_eval::EngineEval::new)
            .map_err(|e| e.to_string())?;
        eprintln!("nodes at depth {depth}: {}: {} in {:.2} s", short(&variant), r.total, r.elapsed.as_secs_f64());
        out.insert(name, Nodes { per_position: r.nodes, total: r.total, seconds: r.elapsed.as_secs_f64() });
    }
    Ok(out)
}
