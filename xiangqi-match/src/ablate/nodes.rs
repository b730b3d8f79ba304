//! The node part: each distinct variant searched on the bench positions, as `xiangqi bench --variant V` does.

use super::Plan;
use std::collections::BTreeMap;
use xiangqi_search::VariantConfig;

/// The node part of one variant.
#[derive(Debug, Clone)]
pub struct Nodes {
    /// The nodes of each bench position.
    pub per_position: Vec<u64>,
    /// Their sum.
    pub total: u64,
    /// The seconds the searches took.
    pub seconds: f64,
}

/// The node part: each distinct variant searched on the bench positions to `plan.depth`, calling `done(variant,
/// nodes)` after each; the nodes by variant (its full name).
///
/// # Errors
/// When the table's memory cannot be had.
pub fn node_part(plan: &Plan, done: &mut dyn FnMut(&VariantConfig, &Nodes)) -> Result<BTreeMap<String, Nodes>, String> {
    let (depth, hash) = (plan.depth, plan.hash);
    let mut out = BTreeMap::new();
    let specs = std::iter::once(plan.base).chain(plan.pairings.iter().flat_map(|p| [p.with, p.without]));
    for variant in specs {
        let name = variant.to_string();
        if out.contains_key(&name) {
            continue;
        }
        let r = xiangqi_search::bench::bench(&variant, depth, hash, 1, xiangqi_eval::ChosenEval::new)
            .map_err(|e| e.to_string())?;
        let nodes = Nodes { per_position: r.nodes, total: r.total, seconds: r.elapsed.as_secs_f64() };
        done(&variant, &nodes);
        out.insert(name, nodes);
    }
    Ok(out)
}
