// The Learn tab's lessons, in the course's order: what each one searches (a synthetic tree or a position, the
// variants to compare, the depth) and its text in English and Chinese, written for this page. The steps, the
// pseudocode and the prune sentences come from the server (the engine's own search code), never from here.

/** The tree of the course's alpha-beta figure (`xiangqi tree --synthetic`'s syntax, leaves from Red's view). */
export const SPEC_TREE = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";

/** A uniform tree (branching 3, depth 3) for move ordering: its leaves in no particular order. */
export const ORDER_TREE = "(((3 12 8) (2 4 6) (14 5 2)) ((7 1 9) (10 3 6) (5 11 4)) ((6 2 13) (8 9 1) (4 7 3)))";

/**
 * A position where a depth-1 search misjudges a capture at the horizon: Red's chariot on e1 can take the pawn on
 * e5, which Black's chariot on e8 guards. Without quiescence the capture looks like a pawn won (e1e5, +176); with
 * it the recapture is seen and Red keeps its chariot (e1e3, +47), as `xiangqi compare --depth 1` says.
 */
export const QS_FEN = "3k5/4r4/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1";

/** A position after 炮二平五 马8进7 马二进三 车9平8, for PVS on a real board. */
export const REAL_FEN = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3";

/**
 * A horse against a horse, for null-move pruning: a node tries the pass only with R + 1 = 4 plies left, so the
 * search must be 5 plies deep, which a small position keeps short (7,837 nodes without it, 4,665 with it, as
 * `xiangqi compare --depth 5 --variants negamax-ab,negamax-ab+nmp` counts them).
 */
export const NMP_FEN = "3k5/9/9/4n4/9/9/4N4/9/9/5K3 w - - 0 1";

/**
 * The lessons. `runs`: the searches shown side by side, each a variant (and for lesson 4 the tree's order);
 * `source`: `tree` (a synthetic tree) or `fen` (a position), with `depth`.
 */
export const LESSONS = [
  {
    key: "minimax", source: "tree", tree: SPEC_TREE,
    runs: [{ variant: "minimax" }],
    en: ["Minimax",
      "Minimax searches every move to the depth asked. A leaf's value is the evaluation from Red's side. At Red's " +
      "nodes the search keeps the largest child value (Red maximises), at Black's nodes the smallest (Black " +
      "minimises). The value that reaches the root is what both sides can force with their best play. Minimax " +
      "never skips a move: every leaf is evaluated. Count them, and compare with the next lesson."],
    zh: ["极小化极大",
      "极小化极大搜索把每一步都搜到指定深度。叶节点的值是从红方角度的评估。在红方节点取子节点中的最大值（红方求最大），" +
      "在黑方节点取最小值（黑方求最小）。传到根节点的值就是双方都走最好时能保证的结果。极小化极大不跳过任何着法：" +
      "每个叶节点都要评估。数一数，再和下一课比较。"],
  },
  {
    key: "alphabeta", source: "tree", tree: SPEC_TREE,
    runs: [{ variant: "alphabeta" }, { variant: "alphabeta-hard" }],
    en: ["Alpha-beta",
      "Alpha-beta returns the same root value as minimax but skips the moves that cannot change it. α is what Red " +
      "is already sure of, β what Black is already sure of. At a Black node, once a child is ≤ α, Red will never " +
      "let the game come here, so the other children are pruned; at a Red node a child ≥ β prunes the rest. The " +
      "fail-hard routines (best for Red, worst for Black) return a value clamped into [α, β]; the fail-soft form " +
      "returns the value it found. Switch between the two and compare what the nodes return."],
    zh: ["α-β 剪枝",
      "α-β 剪枝得到和极小化极大相同的根值，但跳过不可能改变结果的着法。α 是红方已经确保的值，β 是黑方已经确保的值。" +
      "在黑方节点，一旦某个子节点 ≤ α，红方不会让棋局走到这里，其余子节点被剪掉；在红方节点，子节点 ≥ β 时剪掉其余。" +
      "硬失败的例程（红方的 best、黑方的 worst）把返回值限制在 [α, β] 内；软失败的写法返回实际找到的值。" +
      "切换两种写法，比较各节点的返回值。"],
  },
  {
    key: "negamax", source: "tree", tree: SPEC_TREE,
    runs: [{ variant: "negamax" }, { variant: "negamax-ab" }, { variant: "negamax-ab-hard" }],
    en: ["Negamax",
      "Negamax writes minimax as one function: every node maximises the score of its own side to move, and a " +
      "child's value is negated on the way up, since max(a, b) = −min(−a, −b). Negamax alpha-beta hands the child " +
      "the window [−β, −α]. Fail-soft returns the best value found, even outside the window; fail-hard returns α " +
      "or β instead. Inner nodes can return different values, yet the root value is the same: the root's window " +
      "is (−∞, +∞), so nothing is clamped there. The frame shows the function's own variables, from the side " +
      "to move's view; the tree shows every value from Red's."],
    zh: ["负极大值",
      "负极大值搜索把极小化极大写成一个函数：每个节点都为自己一方求最大值，子节点的值向上传时取负，因为 " +
      "max(a, b) = −min(−a, −b)。负极大值 α-β 把窗口 [−β, −α] 交给子节点。软失败返回找到的最佳值，即使它在窗口之外；" +
      "硬失败则返回 α 或 β。内部节点的返回值可能不同，但根值相同：根节点的窗口是 (−∞, +∞)，那里没有截断。" +
      "变量面板显示函数自己的变量，是走子方的视角；树上的数值都是红方视角。"],
  },
  {
    key: "ordering", source: "tree", tree: ORDER_TREE,
    runs: [{ variant: "alphabeta", order: "best" }, { variant: "alphabeta", order: "worst" },
      { variant: "alphabeta", order: "given" }],
    en: ["Move ordering",
      "Alpha-beta prunes most when the best move comes first: every later move then only has to be refuted. The " +
      "same tree, its children sorted best first and worst first by their minimax values (which the server " +
      "computed with minimax). With perfect ordering, a uniform tree of branching b and depth d evaluates only " +
      "b^ceil(d/2) + b^floor(d/2) − 1 leaves, the minimal tree; in the worst order alpha-beta evaluates all b^d."],
    zh: ["着法排序",
      "最好的着法先搜时，α-β 剪枝最多：之后的每个着法只需被驳倒。同一棵树，每个节点的子节点按极小化极大值" +
      "（由服务器用极小化极大算出）从好到坏、从坏到好排列。完美排序时，分支数 b、深度 d 的均匀树只需评估 " +
      "b^ceil(d/2) + b^floor(d/2) − 1 个叶节点，即最小树；最差的顺序下 α-β 要评估全部 b^d 个。"],
  },
  {
    key: "nullmove", source: "fen", fen: NMP_FEN, depth: 5,
    runs: [{ variant: "negamax-ab+nmp" }, { variant: "negamax-ab" }],
    en: ["Null move",
      "Null-move pruning lets the side to move pass. If a search reduced by R = 3 plies after the pass still " +
      "reaches β, the position is so strong that a real move would too, and the node returns β without searching " +
      "a move. It is never tried twice in a row, nor in check (a pass would be illegal there), and it trusts that " +
      "zugzwang is rare. A real position, the engine's evaluation; compare the node counts with and without it."],
    zh: ["空着裁剪",
      "空着裁剪让走子方“让一步”。如果让步后减少 R = 3 层的搜索仍然达到 β，说明局面强到走任何真实着法也会达到 β，" +
      "节点不搜索着法就返回 β。不会连续两次空着，被将军时也不用（那里让步不合法），它相信“被迫走坏棋”的局面很少见。" +
      "真实局面，引擎的评估；比较有无空着时的节点数。"],
  },
  {
    key: "pvs", source: "tree", tree: SPEC_TREE, fen: REAL_FEN, depth: 3,
    runs: [{ variant: "negamax-ab+pvs" }, { variant: "negamax-ab+pvs", source: "fen" }],
    en: ["Principal variation search",
      "Principal variation search trusts the move ordering. The first move is searched with the full window " +
      "[α, β]; every later move with a zero window [α, α + 1], which only asks whether it beats α. Most answers " +
      "are no, and such a search is cheap. When a move fails high inside the window (α < value < β), it is " +
      "searched again with the full window to learn its exact value: a re-search. The synthetic tree first, then " +
      "a real position."],
    zh: ["主要变例搜索",
      "主要变例搜索（PVS）相信着法排序。第一步用完整窗口 [α, β] 搜索，之后每一步用零窗口 [α, α + 1] 搜索，" +
      "只问它是否超过 α。大多数回答是否定的，这样的搜索很便宜。当某步在窗口内高出（α < 值 < β）时，" +
      "用完整窗口重新搜索以得到准确值：重新搜索。先看合成树，再看真实局面。"],
  },
  {
    key: "quiescence", source: "fen", fen: QS_FEN, depth: 1,
    runs: [{ variant: "negamax-ab" }, { variant: "negamax-ab+qs" }],
    en: ["Quiescence search",
      "A search that stops at depth 0 in the middle of an exchange misjudges the position: it sees the capture, " +
      "not the recapture. Quiescence search goes on at the leaves with captures only. The side to move may also " +
      "stand pat on the static evaluation, since nobody is forced to capture; a stand pat ≥ β ends the node. The " +
      "same position to depth 1, without and with quiescence: compare the root values and the moves chosen."],
    zh: ["静态搜索",
      "在交换中途停在深度 0 的搜索会误判局面：它看到吃子，却看不到回吃。静态搜索在叶节点继续只搜吃子着法。" +
      "走子方也可以站定，取静态评估，因为没有人被迫吃子；站定值 ≥ β 时节点结束。同一局面搜到深度 1，" +
      "分别不用和使用静态搜索：比较根值和所选的着法。"],
  },
];
