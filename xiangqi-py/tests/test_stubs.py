"""The type stubs (xiangqi/_xiangqi.pyi) agree with the extension module: mypy's stubtest compares every class,
function and parameter."""

import subprocess
import sys


def test_stubtest_finds_no_difference():
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "xiangqi._xiangqi"], capture_output=True, text=True, cwd="/"
    )
    assert out.returncode == 0, out.stdout + out.stderr
