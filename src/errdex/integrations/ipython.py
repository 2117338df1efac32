"""IPython and Jupyter: ``%load_ext errdex`` puts errdex's answer under a cell's traceback.

The shell's own traceback comes first, unchanged; the block follows it, as (coloured) text
in a terminal and as HTML with a text/plain fallback in a kernel, so a notebook shows the
raise site where the error is. ``%errdex`` explains the last error again on demand. errdex
failing must never break the shell: every failure is reported on one line and swallowed.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

__all__ = ["explain_last", "load_ipython_extension", "unload_ipython_extension"]

#: The attribute on the shell that holds what errdex replaced (the custom handler before it).
_SAVED = "_errdex_saved_custom_exc"
MAGIC = "errdex"


def load_ipython_extension(ipython: Any) -> None:
    """Install errdex's exception handler and the ``%errdex`` line magic; loading twice is
    loading once. A custom handler that was already there keeps handling its exceptions,
    and errdex's block follows what it shows."""
    if not hasattr(ipython, _SAVED):
        setattr(ipython, _SAVED, (ipython.custom_exceptions, ipython.CustomTB))
    ipython.set_custom_exc((Exception,), _handler)
    ipython.register_magic_function(_magic, magic_kind="line", magic_name=MAGIC)


def unload_ipython_extension(ipython: Any) -> None:
    """Put back the handler errdex replaced and remove ``%errdex``."""
    saved = getattr(ipython, _SAVED, None)
    if saved is None:
        return
    ipython.custom_exceptions, ipython.CustomTB = saved
    delattr(ipython, _SAVED)
    ipython.magics_manager.magics["line"].pop(MAGIC, None)


def _handler(
    shell: Any,
    etype: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    tb_offset: int | None = None,
) -> None:
    """IPython's custom exception handler: the usual traceback, then errdex's block."""
    previous, previous_handler = getattr(shell, _SAVED, ((), None))
    if previous and previous_handler is not None and isinstance(value, previous):
        previous_handler(etype, value, tb, tb_offset=tb_offset)
    else:
        shell.showtraceback(
            (etype, value, tb), tb_offset=tb_offset, running_compiled_code=_ran_code(tb)
        )
    _show_block(shell, value, quiet=True)


def _ran_code(tb: TracebackType | None) -> bool:
    """Whether the error came from running the cell (``run_code``) rather than from parsing
    it: IPython shows the two differently, and errdex must not change how."""
    return tb is not None and tb.tb_frame.f_code.co_name == "run_code"


def _magic(line: str = "") -> None:
    """``%errdex``: explain the last error of this session."""
    from IPython import get_ipython

    explain_last(get_ipython())


def explain_last(shell: Any) -> None:
    """Show errdex's block for the session's last error, or say why there is none."""
    value = getattr(sys, "last_value", None)
    if value is None:
        print("errdex: no error to explain yet in this session.")
        return
    _show_block(shell, value, quiet=False)


def _show_block(shell: Any, value: BaseException, *, quiet: bool) -> None:
    """Match the live exception and show the block; under a traceback (``quiet``) nothing
    is shown when nothing matched, while ``%errdex`` says so."""
    try:
        from errdex.integrations.block import render_html, render_text
        from errdex.integrations.live import answers_for_exception

        answers = answers_for_exception(value)
        in_kernel = getattr(shell, "kernel", None) is not None
        text = render_text(answers, color=not in_kernel and _terminal_colour(shell))
        if not text:
            if not quiet:
                print(_why_nothing(value))
            return
        if in_kernel:
            shell.display_pub.publish(
                data={"text/plain": text, "text/html": render_html(answers)}, metadata={}
            )
        else:
            print(text)
    except Exception as exc:  # errdex must never break the shell it helps
        print(
            f"errdex: could not explain this error ({type(exc).__name__}: {exc})", file=sys.stderr
        )


def _why_nothing(value: BaseException) -> str:
    """What ``%errdex`` says when there is no block: no catalogue, or no match in it."""
    from errdex.integrations.catalogue import default_db

    db = default_db()
    if isinstance(db, str):  # a server's URL (ERRDEX_DB=postgresql://…)
        from errdex.db_url import shown_url

        return f"errdex: nothing in {shown_url(db)} matches {type(value).__name__}: {value}"
    if db is None or not db.is_file():
        where = f" at {db}" if db is not None else ""
        return (
            f"errdex: no catalogue{where} (set ERRDEX_DB, or run `errdex scan` to make errdex.db)"
        )
    return f"errdex: nothing in {db} matches {type(value).__name__}: {value}"


def _terminal_colour(shell: Any) -> bool:
    """Colour only for a terminal, and only when the shell itself uses colours."""
    colours = str(getattr(shell, "colors", "nocolor")).lower()
    return colours != "nocolor" and sys.stdout.isatty()
