// The page's words in English and Chinese. `t(key)` gives the current language's word; elements with
// `data-i18n="key"` get their text replaced when the language changes.

const WORDS = {
  en: {
    title: "Xiangqi engine",
    play: "Play", analyse: "Analyse", games: "Games", editor: "Editor", watch: "Watch the search", settings: "Settings",
    new_game: "New game", takeback: "Take back", flip: "Flip board", you_play: "You play",
    red: "Red", black: "Black", none_side: "Nobody (two players)",
    time_control: "Time", per_move: "Time a move (s)", clock: "Clock", minutes: "Minutes", increment: "Increment (s)",
    strength: "Strength", by_time: "By time", by_nodes: "Nodes", by_depth: "Depth", start_fen: "Start from FEN",
    start: "Start", thinking: "The engine is thinking…", your_move: "Your move", game_over: "Game over",
    red_wins: "Red wins", black_wins: "Black wins", draw: "Draw", by_rule: "by",
    lost_on_time: "lost on time",
    analysis: "Analysis", infinite: "Infinite analysis", lines_n: "Lines", notation: "Notation",
    depth: "depth", nps: "n/s", nodes: "nodes", stop: "Stop", server_limit: "The server's limit was reached: the analysis stopped", preview: "Preview — click the board or press Esc to return",
    moves: "Moves", connected: "Connected", disconnected: "Disconnected, reconnecting…",
    load: "Open a PGN or XQF", paste_pgn: "Paste a PGN here", load_text: "Load the text", export: "Export PGN",
    download: "Download", review: "Review the game", review_time: "ms a position", reviewing: "Reviewing",
    mistakes: "Marks", best_was: "best", loss: "loss",
    editor_help: "Pick a piece, then click points to place it; the eraser removes. Apply to play from the position.",
    eraser: "Eraser", clear: "Clear", initial: "Start position", side_to_move: "Side to move", apply: "Apply",
    position_ok: "Legal position", synthetic: "Synthetic tree", position: "This position", variant_a: "Variant A",
    variant_b: "Variant B", run: "Run", step_back: "Back", step_fwd: "Forward", first: "First", last: "Last",
    node: "node", window: "window", value: "value", searched: "searched", pruned: "pruned",
    kind: "kind", exit: "exit", letters: "WXF letters on pieces", language: "Language", games_in_file: "Games in the file",
    engine: "Engine", error: "Error", checkmate: "checkmate", stalemate: "stalemate",
    l_cutoff: "beta cutoff", l_null: "null move", l_zero: "zero window", l_research: "re-search",
    l_qs: "quiescence", shown: "shown", unplayed: "moves after the end (not judged)", promote: "Make main line", plies: "plies", delete_from: "Delete from here", add_line: "Add this line to the moves", view: "Values", view_root: "root player's view", view_mover: "side to move's view", l_tt: "table hit", l_pruned: "pruned (never searched)",
    learn: "Learn", lessons: "Lessons", practice: "Practice", own_tree: "Your own tree", counts: "Counts on this position",
    l_play: "Play", l_pause: "Pause", l_running: "Searching…", l_best: "best", l_steps: "steps", l_leaves: "leaves evaluated",
    l_root: "root", l_to_move: "to move", l_not_searched: "not searched", l_minimal: "minimal tree of this uniform tree",
    order_best: "best first", order_worst: "worst first", order_given: "as given", variant: "Variant",
    f_label: "line", f_node: "node", f_ply: "ply", f_depth: "depth left", f_alpha: "α", f_beta: "β", f_value: "value",
    f_best: "best so far", f_move: "move tried", f_stack: "call stack",
    p_help: "Which leaves will alpha-beta never evaluate? Click them, then run the search.", p_seed: "Seed",
    p_values: "Leaf values", p_open: "Open", p_new: "New tree", p_run: "Run the search", p_found: "found",
    p_missed: "missed", p_wrong: "wrongly marked", p_missed_one: "was never evaluated: show the cutoff",
    p_wrong_one: "was evaluated: show the step",
    o_help: "Type a tree (nested parentheses, leaves valued for Red) or click a node and edit it.",
    o_add: "Add a child", o_set: "Set the value", o_remove: "Remove",
    c_help: "The nodes each variant searches on the board's position, at depths 1 to 4, with its value and move.",
    c_run: "Count", c_agree: "The exact variants (minimax to PVS) agree on the value at every depth.",
    c_disagree: "The exact variants disagree on the value: that is a bug.",
    level: "Level", level_help: "Elo relative to level 10, measured in games", full_strength: "full strength",
    round: "round", chart_title: "Evaluation of every position (Red's view, in pawns); click to go there",
    chart_moves: "move",
    animate: "Slide the pieces", sound: "Sound", typed_label: "Type a move", play_typed: "Play",
    no_move_now: "no move can be made on the board now", board: "Board", comma: ", ", check: "check",
    empty_point: "empty", selected_point: "selected", move_here: "a move here",
    piece_K: "red king", piece_A: "red advisor", piece_B: "red elephant", piece_N: "red horse", piece_R: "red chariot",
    piece_C: "red cannon", piece_P: "red soldier", piece_k: "black king", piece_a: "black advisor",
    piece_b: "black elephant", piece_n: "black horse", piece_r: "black chariot", piece_c: "black cannon",
    piece_p: "black soldier",
  },
  zh: {
    title: "象棋引擎",
    play: "对弈", analyse: "分析", games: "棋谱", editor: "摆棋", watch: "观看搜索", settings: "设置",
    new_game: "新对局", takeback: "悔棋", flip: "翻转棋盘", you_play: "您执",
    red: "红方", black: "黑方", none_side: "无（双人）",
    time_control: "用时", per_move: "每步用时（秒）", clock: "棋钟", minutes: "分钟", increment: "加秒",
    strength: "强度", by_time: "按时间", by_nodes: "节点数", by_depth: "深度", start_fen: "从局面开始（FEN）",
    start: "开始", thinking: "引擎思考中…", your_move: "轮到您走", game_over: "对局结束",
    red_wins: "红胜", black_wins: "黑胜", draw: "和棋", by_rule: "判定：",
    lost_on_time: "超时判负",
    analysis: "分析", infinite: "无限分析", lines_n: "变例数", notation: "记谱法",
    depth: "深度", nps: "节点/秒", nodes: "节点", stop: "停止", server_limit: "已到服务器的上限，分析停止", preview: "预览——点击棋盘或按 Esc 返回",
    moves: "着法", connected: "已连接", disconnected: "连接断开，正在重连…",
    load: "打开 PGN 或 XQF", paste_pgn: "在此粘贴 PGN", load_text: "载入文本", export: "导出 PGN",
    download: "下载", review: "复盘全局", review_time: "毫秒/局面", reviewing: "复盘中",
    mistakes: "标记", best_was: "最佳", loss: "损失",
    editor_help: "选一个棋子，再点击棋盘放置；橡皮擦除。点“应用”从该局面开始。",
    eraser: "橡皮", clear: "清空", initial: "初始局面", side_to_move: "走子方", apply: "应用",
    position_ok: "局面合法", synthetic: "合成树", position: "当前局面", variant_a: "算法 A",
    variant_b: "算法 B", run: "运行", step_back: "后退", step_fwd: "前进", first: "开头", last: "结尾",
    node: "节点", window: "窗口", value: "值", searched: "已搜索", pruned: "已剪枝",
    kind: "类型", exit: "结果", letters: "棋子用 WXF 字母", language: "语言", games_in_file: "文件中的对局",
    engine: "引擎", error: "错误", checkmate: "将死", stalemate: "困毙",
    l_cutoff: "β 截断", l_null: "空着", l_zero: "零窗口", l_research: "重新搜索",
    l_qs: "静态搜索", shown: "显示", unplayed: "步在终局之后（不判定）", promote: "设为主线", plies: "步", delete_from: "从此处删除", add_line: "把此变例加入着法", view: "数值", view_root: "根节点一方视角", view_mover: "走子方视角", l_tt: "置换表命中", l_pruned: "剪枝（未搜索）",
    learn: "学习", lessons: "课程", practice: "练习", own_tree: "自己的树", counts: "本局面的节点数",
    l_play: "播放", l_pause: "暂停", l_running: "搜索中…", l_best: "最佳", l_steps: "步", l_leaves: "个叶节点被评估",
    l_root: "根", l_to_move: "走", l_not_searched: "未搜索", l_minimal: "这棵均匀树的最小树",
    order_best: "好的在前", order_worst: "坏的在前", order_given: "原顺序", variant: "算法",
    f_label: "行", f_node: "节点", f_ply: "层", f_depth: "剩余深度", f_alpha: "α", f_beta: "β", f_value: "值",
    f_best: "目前最佳", f_move: "所试着法", f_stack: "调用栈",
    p_help: "α-β 剪枝永远不会评估哪些叶节点？点击它们，然后运行搜索。", p_seed: "种子",
    p_values: "叶节点取值", p_open: "打开", p_new: "新的树", p_run: "运行搜索", p_found: "找到",
    p_missed: "漏掉", p_wrong: "错标", p_missed_one: "从未被评估：显示截断", p_wrong_one: "被评估了：显示那一步",
    o_help: "输入一棵树（嵌套括号，叶节点为红方的值），或点击节点进行编辑。",
    o_add: "添加子节点", o_set: "设定值", o_remove: "删除",
    c_help: "各算法在棋盘局面上搜索的节点数，深度 1 到 4，以及其值和着法。",
    c_run: "计数", c_agree: "精确算法（极小化极大到 PVS）在每个深度的值都一致。",
    c_disagree: "精确算法的值不一致：这是错误。",
    level: "等级", level_help: "相对第 10 级的等级分，由对局测得", full_strength: "全力",
    round: "轮次", chart_title: "每个局面的评估（红方视角，以兵为单位）；点击可跳转",
    chart_moves: "回合",
    animate: "走子动画", sound: "声音", typed_label: "输入着法", play_typed: "走",
    no_move_now: "现在不能在棋盘上走棋", board: "棋盘", comma: "，", check: "将军",
    empty_point: "空", selected_point: "已选中", move_here: "可走到此",
    piece_K: "红帅", piece_A: "红仕", piece_B: "红相", piece_N: "红马", piece_R: "红车", piece_C: "红炮", piece_P: "红兵",
    piece_k: "黑将", piece_a: "黑士", piece_b: "黑象", piece_n: "黑马", piece_r: "黑车", piece_c: "黑炮", piece_p: "黑卒",
  },
};

const RULES_ZH = {
  checkmate: "将死", stalemate: "困毙", "perpetual check": "长将", "perpetual chase": "长捉",
  "60-move rule": "六十回合自然限着", repetition: "重复局面", "lost on time": "超时",
};

let lang = localStorage.getItem("xq.lang") || (navigator.language.startsWith("zh") ? "zh" : "en");

export function language() {
  return lang;
}

export function setLanguage(next) {
  lang = WORDS[next] ? next : "en";
  localStorage.setItem("xq.lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  document.title = t("title");
}

export function t(key) {
  return WORDS[lang][key] ?? WORDS.en[key] ?? key;
}

/** A rule's name as the server gives it, in the page's language. */
export function ruleName(rule) {
  if (lang === "zh") return RULES_ZH[rule] ?? rule;
  return rule;
}
