"""The examples of the package's docstrings run."""

import doctest

import xiangqi


def test_the_package_docstring_examples():
    result = doctest.testmod(xiangqi, raise_on_error=False)
    assert result.attempted >= 5 and result.failed == 0


def test_the_gym_docstring_example():
    import xiangqi.gym

    result = doctest.testmod(xiangqi.gym, raise_on_error=False)
    assert result.attempted >= 3 and result.failed == 0
