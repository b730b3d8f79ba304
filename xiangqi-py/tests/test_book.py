"""The book's Python chapter (book/src/python.md): its code blocks run in order, as a notebook would."""

import re

from conftest import ROOT


def test_the_chapters_example_runs():
    text = (ROOT / "book" / "src" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 5
    namespace = {}
    for block in blocks:
        exec(compile(block, "book/src/python.md", "exec"), namespace)
