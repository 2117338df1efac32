"""Text from scanned code or from a paste, made safe to print on a terminal.

Messages, file names, class names and source lines come from repositories and pastes
nobody vetted: an escape sequence in them would reach the terminal (recolour it, move the
cursor, set the window title, write a fake hyperlink), and ``[bold]`` in them would be
read as rich markup. Every terminal print of such data goes through :func:`clean` (for a
string) or :func:`plain` (for a rich ``Text``, which is never parsed as markup).
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:  # imported when used: clean() alone must not load rich (errdex's excepthook)
    from rich.console import Console
    from rich.progress import Progress
    from rich.text import Text

__all__ = ["clean", "fail", "plain", "progress_bar"]

#: C0 controls but newline and tab, DEL, C1 controls (``\x9b`` is a one-byte CSI), and the
#: bidirectional overrides that make text read other than it is.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: The same, and newline and tab too: for a value that must stay on one line.
_CONTROL_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: object, *, line: bool = False) -> str:
    """``text`` with every control character shown as its escape (``\\x1b``), so that it
    prints as what it is; ``line`` escapes newlines and tabs as well."""
    pattern = _CONTROL_LINE if line else _CONTROL
    return pattern.sub(_visible, str(text))


def plain(text: object, style: str = "", *, line: bool = False) -> Text:
    """A rich ``Text`` of cleaned ``text``: printed as is, never read as markup."""
    from rich.text import Text

    return Text(clean(text, line=line), style=style)


def fail(message: str, code: int = 2) -> NoReturn:
    """A command's usage or input error: ``error: message`` on stderr, never read as
    markup, then exit ``code`` (2, as click does for usage errors)."""
    from rich.console import Console
    from rich.text import Text

    Console(stderr=True).print(Text.assemble(("error: ", "bold red"), plain(message)))
    sys.exit(code)


def progress_bar(verb: str | None, console: Console, *, disable: bool = False) -> Progress:
    """The bar long commands draw on stderr: ``verb description ━━━ done/total elapsed``,
    gone when the work ends."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    label = f"[bold]{verb}[/] {{task.description}}" if verb else "{task.description}"
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=disable,
    )
