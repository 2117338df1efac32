"""A base's hook record names the subclasses that bind the hook in their class body
(:mod:`errdex.analyze.class_links`); such a binding is in no function and no class
header, so a re-scan kept the record as stored when it came or went (rr4: change
``_enc = staticmethod(_noop)`` to ``other = …``, re-scan: "4 kept, 0 analysed again",
the record still named ``Plain``). Each re-scan here equals a full scan."""

from __future__ import annotations

from pathlib import Path

from ..source.helpers import write
from ..test_scan_reuse import _age, _comparable, _scan, tree

__all__ = ["tree"]

BASE = '''\
"""Hooks."""


class Encoder:
    """An encoder."""

    def encode(self, x):
        """Encode x."""
        return self._enc(x)

    def _enc(self, x):
        raise NotImplementedError
'''

SUB = '''\
"""Subclasses."""
from pkg.base import Encoder


def _noop(x):
    return x


class Plain(Encoder):
    """Binds the hook."""

    _enc = staticmethod(_noop)
'''


def _hook_text(tree: Path, cache: bool = True) -> tuple[str, bool]:
    result = _scan(tree, cache=cache)
    (solutions,) = [r["solutions"] for r, _ in result.items if r["filePath"] == "pkg/base.py"]
    assert _comparable(result) == _comparable(_scan(tree, cache=False))
    return solutions[0], "Plain" in solutions[0]


def _first(tree: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        write(tree, rel, text)
    _age(tree)
    _scan(tree)


def test_a_binding_gone_from_another_file_is_seen(tree: Path) -> None:
    _first(tree, {"pkg/base.py": BASE, "pkg/sub.py": SUB})
    write(tree, "pkg/sub.py", SUB.replace("_enc = ", "other = "))
    assert not _hook_text(tree)[1]


def test_a_binding_in_a_new_file_is_seen(tree: Path) -> None:
    _first(tree, {"pkg/base.py": BASE})
    write(tree, "pkg/sub.py", SUB)
    assert _hook_text(tree)[1]


def test_a_binding_gone_from_the_same_file_is_seen(tree: Path) -> None:
    # far enough below the raise that the record's source window does not hold it
    pad = "".join(f"\n\ndef _pad{i}():\n    return {i}\n" for i in range(40))
    one = BASE + pad + "\n\n" + SUB.split("\n\n\n", 1)[1]
    _first(tree, {"pkg/base.py": one})
    write(tree, "pkg/base.py", one.replace("_enc = ", "other = "))
    assert not _hook_text(tree)[1]
