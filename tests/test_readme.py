"""The Python API example (in docs/tools.md) runs as written and does what its comments say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

TOOLS_DOC = Path(__file__).resolve().parents[1] / "docs" / "tools.md"


def test_the_python_api_example_runs_as_written(tmp_path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", TOOLS_DOC.read_text(), re.S)
    assert blocks, "docs/tools.md has no python example"
    script = tmp_path / "example.py"
    script.write_text(blocks[0])
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("running\n")
    assert "done" in out and "exit code 0" in out
    assert "Continue? [y/N]" in out and "answer=y" in out
    assert "line1" in out and "200~" not in out  # cat never asked for bracketed paste: no markers
