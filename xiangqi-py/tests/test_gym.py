"""The Gymnasium environment passes Gymnasium's own checker, with the action mask in `info`."""

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

import xiangqi
import xiangqi.gym


def test_check_env():
    # Made through gymnasium.make, so that the checker also tries the render modes.
    check_env(gym.make("xiangqi/Xiangqi-v0", render_mode="ansi").unwrapped, skip_render_check=False)
    check_env(gym.make("xiangqi/Xiangqi-v0", opponent="random").unwrapped)


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
