"""A module-level name a function reads is written into its template only when the
function reads what the walk saw (issue 10): not when it is bound again after the
``def``, declared ``global`` elsewhere, or stored from another module of the package; a
constant never rebound is still text."""

from __future__ import annotations

from pathlib import Path

from ._fixture import package_on_disk, sites_by_line

CONFIG = """\
PREFIX = "cfg"
MAXYEAR = 9999
MODE = "strict"
KIND = "plain"
COLOR = "red"


def set_mode(m):
    global MODE
    MODE = m


def check(x):
    if x == 1:
        raise ValueError(PREFIX + ": mode is %s" % MODE)
    if x == 2:
        raise ValueError("year %d is out of range" % MAXYEAR)
    if x == 3:
        raise ValueError("kind is " + KIND)
    raise ValueError("colour is " + COLOR)


KIND = "fancy"
"""
OTHER = """\
from . import config

config.COLOR = "blue"
"""


def test_a_name_bound_again_or_elsewhere_stays_a_hole(tmp_path: Path) -> None:
    with package_on_disk(tmp_path, "pkg", {"config": CONFIG, "other": OTHER}) as root:
        found = sites_by_line(root, "src/pkg/config.py")
    shown = {line: s.template.display for line, s in found.items()}
    lines = CONFIG.splitlines()

    def at(needle: str) -> str:
        return shown[next(i for i, t in enumerate(lines, 1) if needle in t)]

    assert at("mode is") == "cfg: mode is %s"  # ``global MODE`` in ``set_mode``
    assert at("year %d") == "year 9999 is out of range"
    assert at("kind is") == "kind is {KIND}"  # ``KIND = "fancy"`` after the ``def``
    assert at("colour is") == "colour is {COLOR}"  # ``config.COLOR = "blue"``
