"""The learning interface: the move index, legal masks, piece planes and the Boards batch."""

import numpy as np
import pytest

import xiangqi
from conftest import colour_flip, random_positions


def test_the_move_index_round_trips_and_mirrors():
    assert xiangqi.MOVE_COUNT == 2086
    mirror = xiangqi.mirror_indices()
    assert mirror.shape == (2086,) and (mirror[mirror] == np.arange(2086)).all()
    for i in range(xiangqi.MOVE_COUNT):
        m = xiangqi.index_to_move(i)
        assert xiangqi.move_to_index(m) == i
        assert xiangqi.index_to_move(int(mirror[i])) == m.flip()
        assert xiangqi.move_to_index(m.flip(), flip=True) == i
    with pytest.raises(IndexError):
        xiangqi.index_to_move(2086)


def test_legal_mask_has_exactly_the_legal_moves():
    for board in random_positions(500, seed=3):
        for relative in (False, True):
            flip = relative and board.turn == xiangqi.BLACK
            mask = board.legal_mask(relative=relative)
            assert mask.dtype == np.bool_ and mask.shape == (xiangqi.MOVE_COUNT,)
            want = sorted(xiangqi.move_to_index(m, flip=flip) for m in board.legal_moves)
            assert np.flatnonzero(mask).tolist() == want


def test_encode_mirrors_correctly():
    boards = [b for b in random_positions(400, seed=5) if b.turn == xiangqi.BLACK][:100]
    flipped = [xiangqi.Board(colour_flip(b.fen()), lenient=True) for b in boards]
    rel = xiangqi.encode(boards, relative=True)
    absolute = xiangqi.encode(flipped)
    assert rel.shape == (len(boards), xiangqi.PLANES, 10, 9) and rel.dtype == np.uint8
    # The side to move's view of Black to move is Red's view of the colour-flipped position.
    assert (rel[:, :14] == absolute[:, :14]).all()
    # The absolute view: plane 0 is Red's king, on the square the board says; plane 14 is all zero (Black to move).
    plain = xiangqi.encode(boards)
    for b, planes in zip(boards, plain):
        rank, file = divmod(b.fen().split("/").__len__() and _square_of(b, "K"), 9)
        assert planes[0, rank, file] == 1 and planes[0].sum() == 1
        assert planes[14].sum() == 0
    # Relative masks follow the same flip.
    for b, f in zip(boards, flipped):
        assert (b.legal_mask(relative=True) == f.legal_mask()).all()


def _square_of(board, letter):
    return next(sq for sq in range(90) if board.piece_at(sq) == letter)


def test_boards_play_one_move_on_each_board_in_one_call():
    boards = xiangqi.Boards(3)
    h2e2 = xiangqi.move_to_index("h2e2")
    masks, outcomes = boards.step(np.array([h2e2, -1, h2e2]))
    assert masks.shape == (3, xiangqi.MOVE_COUNT) and outcomes.tolist() == [0, 0, 0]
    assert boards[0].fen() == boards[2].fen() != boards[1].fen()
    assert (masks[0] == boards[0].legal_mask()).all() and (masks[1] == xiangqi.Board().legal_mask()).all()
    with pytest.raises(ValueError, match="board 1: "):
        boards.step(np.array([-1, xiangqi.move_to_index("e2e9"), -1]))
    mate = xiangqi.Boards(fens=["4k4/8R/9/9/9/9/9/9/R8/3K5 w"])
    masks, outcomes = mate.step(np.array([xiangqi.move_to_index("a1a9")]))
    assert outcomes.tolist() == [1] and mate.terminations() == ["checkmate"] and not masks.any()
    mate.reset()
    assert mate.outcomes_array().tolist() == [0]
    assert xiangqi.encode(boards).shape == (3, 15, 10, 9)


def test_encode_into_an_array():
    boards = random_positions(50, seed=9)
    fresh = xiangqi.encode(boards)
    out = np.full((50, xiangqi.PLANES, 10, 9), 7, dtype=np.uint8)
    again = xiangqi.encode(boards, out=out)
    assert again is out and (out == fresh).all()
    with pytest.raises(ValueError, match="shape"):
        xiangqi.encode(boards, out=np.zeros((49, xiangqi.PLANES, 10, 9), dtype=np.uint8))
    with pytest.raises(ValueError, match="contiguous"):
        xiangqi.encode(boards, out=np.zeros((50, xiangqi.PLANES, 10, 18), dtype=np.uint8)[..., ::2])
