"""A parameter the body binds again only after the raise still reaches the check unchanged."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
def open_socket(sock, mode):
    if mode not in ("r", "w"):
        raise ValueError("invalid mode for a socket")
    if "b" not in mode:
        mode += "b"
    return mode


def drain(chunks, limit):
    for chunk in chunks:
        if limit < 0:
            raise ValueError("limit went negative")
        limit -= len(chunk)


def pad(text, width):
    width = width - 1
    if width < 0:
        raise ValueError("width too small")
    return text.ljust(width)
"""


def _solutions(tmp_path: Path) -> dict[str, list[str]]:
    items = one_file_items(tmp_path, "m.py", SOURCE)
    return {r["errorMessage"]: r["solutions"] for r, _ in items}


def test_bound_again_after_the_raise_but_not_before_it_nor_in_a_loop(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    (text,) = found["invalid mode for a socket"]
    assert text.startswith("Pass `mode` to `open_socket()` as one of `'r'` or `'w'`: "), text
    for message, param in (("limit went negative", "`limit`"), ("width too small", "`width`")):
        for text in found[message]:
            assert not text.startswith("Pass"), text
            assert param not in text, text
