//! Recording the searched tree (placeholder until the tree-drawing issue lands).
