"""A test module whose snippets cannot be cut costs that module, never the whole verify."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.verify import runner
from errdex.verify.runner import RepoRun, _candidates


def test_a_module_that_fails_to_cut_is_counted_and_the_others_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = "import pytest\nfrom pkg import f\n\ndef test_a():\n    with pytest.raises(ValueError):\n        f(1)\n"
    files = []
    for name in ("test_bad.py", "test_good.py"):
        (tmp_path / name).write_text(body)
        files.append((tmp_path / name, f"tests/{name}"))
    real = runner.candidates

    def cut(tree: Any, rel: str, *args: Any, **kwargs: Any) -> Any:
        if rel.endswith("test_bad.py"):  # as the staticmethod helper's zip(strict) did
            raise ValueError("zip() argument 2 is longer than argument 1")
        return real(tree, rel, *args, **kwargs)

    monkeypatch.setattr(runner, "candidates", cut)
    run = RepoRun("o/pkg")
    got = _candidates(run, files)
    assert {c.test for c in got} == {"tests/test_good.py::test_a"}
    assert run.counts["test modules whose snippets could not be cut"] == 1
