"""A tiny real package, ``widgets``, catalogued by a real ``errdex scan`` (as acme/widgets).

The integration tests raise its errors live and check that errdex finds the raise site.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = "acme/widgets"
SHA = "0123456789abcdef0123456789abcdef01234567"

WIDGETS = '''\
def gear(teeth: int) -> int:
    """A gear with this many teeth."""
    if teeth < 3:
        raise ValueError(f"a gear needs at least 3 teeth, got {teeth}")
    return teeth


def spring(stiffness: float) -> float:
    """A spring of this stiffness."""
    if stiffness <= 0:
        raise TypeError(f"spring stiffness must be positive, not {stiffness!r}")
    return stiffness
'''

#: The line of each raise in WIDGETS, as the catalogue must report it.
GEAR_LINE = 4
SPRING_LINE = 11


def build_catalogue(root: Path) -> tuple[Path, Path]:
    """Write ``widgets`` under ``root/src`` and catalogue it with the real CLI; returns the
    folder to put on ``sys.path`` and the catalogue file."""
    src = root / "src"
    (src / "widgets").mkdir(parents=True)
    (src / "widgets" / "__init__.py").write_text(WIDGETS, encoding="utf-8")
    db = root / "errdex.db"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "errdex.cli",
            "scan",
            str(src),
            "--repo",
            REPO,
            "--sha",
            SHA,
            "--db",
            str(db),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return src, db
