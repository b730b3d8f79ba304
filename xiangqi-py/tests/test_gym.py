"""The Gymnasium environment passes Gymnasium's own checker, with the action mask in `info`."""

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import xiangqi  # noqa: E402
import xiangqi.gym  # noqa: E402


def test_check_env():
    check_env(xiangqi.gym.XiangqiEnv(), skip_render_check=False)
    check_env(xiangqi.gym.XiangqiEnv(opponent="random"))


def test_a_masked_random_game_ends_with_a_reward():
    env = gym.make("xiangqi/Xiangqi-v0", max_plies=60, render_mode="ansi")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        assert not info["illegal_action"]
        if terminated or truncated:
            break
    assert steps <= 60 and obs.shape == (15, 10, 9)
    assert "a b c d e f g h i" in env.render()


def test_an_illegal_action_loses():
    env = xiangqi.gym.XiangqiEnv()
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(xiangqi.move_to_index("e0d0"))  # the king cannot step onto its advisor
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
