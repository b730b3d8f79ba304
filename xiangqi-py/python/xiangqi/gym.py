"""A Gymnasium environment of xiangqi, with the action mask in ``info`` (install the ``gym`` extra).

>>> import xiangqi.gym
>>> env = xiangqi.gym.XiangqiEnv()
>>> obs, info = env.reset(seed=0)
>>> obs.shape, int(info["action_mask"].sum())
((15, 10, 9), 44)

Observations are the piece planes of ``xiangqi.encode`` (``uint8``, ``[15, 10, 9]``); actions are indices of the
fixed move index (``xiangqi.MOVE_COUNT`` of them). With ``relative=True`` (the default) the board is shown from the
side to move and Black's actions are numbered by their colour flip, so one policy plays both colours.

Without an opponent the agent plays both sides (self-play) and each reward is for the side that just moved: 1 for a
win, -1 for a loss, 0 otherwise. With ``opponent`` (``"random"``, a ``xiangqi.Engine``, or a function from a board
to a move) the agent plays the side to move at reset and the opponent answers each move. An illegal action ends the
episode with reward -1 and ``info["illegal_action"] = True``; mask it out with ``info["action_mask"]``.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import xiangqi

Opponent = Union[None, str, "xiangqi.Engine", Callable[["xiangqi.Board"], "xiangqi.Move"]]


class XiangqiEnv(gym.Env):
    """Xiangqi as a Gymnasium environment (see the module documentation)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        fen: Optional[str] = None,
        *,
        relative: bool = True,
        opponent: Opponent = None,
        opponent_depth: int = 1,
        max_plies: int = 400,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']} or None")
        self.start_fen = fen or xiangqi.START_FEN
        xiangqi.Board(self.start_fen)  # a bad FEN raises ValueError here
        self.relative = relative
        self.opponent = opponent
        self.opponent_depth = opponent_depth
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 1, shape=(xiangqi.PLANES, 10, 9), dtype=np.uint8)
        self.action_space = spaces.Discrete(xiangqi.MOVE_COUNT)
        self.board = xiangqi.Board(self.start_fen)

    def _obs(self) -> np.ndarray:
        return xiangqi.encode(self.board, relative=self.relative)[0]

    def _info(self, **extra: Any) -> dict:
        outcome = self.board.outcome()
        info = {
            "action_mask": self.board.legal_mask(relative=self.relative).astype(np.int8),
            "fen": self.board.fen(),
            "termination": outcome.termination if outcome else None,
        }
        info.update(extra)
        return info

    def _decode(self, action: int) -> xiangqi.Move:
        flip = self.relative and self.board.turn == xiangqi.BLACK
        return xiangqi.index_to_move(int(action), flip=flip)

    def _opponent_move(self) -> xiangqi.Move:
        if self.opponent == "random":
            moves = list(self.board.legal_moves)
            return moves[int(self.np_random.integers(len(moves)))]
        if isinstance(self.opponent, xiangqi.Engine):
            return self.opponent.search(self.board, depth=self.opponent_depth).best_move
        return self.opponent(self.board)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        fen = (options or {}).get("fen", self.start_fen)
        self.board = xiangqi.Board(fen)
        self.agent = self.board.turn
        return self._obs(), self._info()

    def _reward_for(self, side: bool) -> float:
        outcome = self.board.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == side else -1.0

    def step(self, action):
        mover = self.board.turn
        move = self._decode(action)
        if not self.board.is_legal(move):
            return self._obs(), -1.0, True, False, self._info(illegal_action=True)
        self.board.push(move)
        side = mover
        if self.opponent is not None and not self.board.is_game_over():
            self.board.push(self._opponent_move())
        terminated = self.board.is_game_over()
        truncated = not terminated and self.board.ply >= self.max_plies
        return self._obs(), self._reward_for(side), terminated, truncated, self._info(illegal_action=False)

    def render(self):
        if self.render_mode == "ansi":
            return str(self.board)
        return None


gym.register(id="xiangqi/Xiangqi-v0", entry_point=XiangqiEnv)

__all__ = ["XiangqiEnv"]
