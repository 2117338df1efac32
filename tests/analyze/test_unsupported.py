"""A type test that turns away an unsupported case: no type to pass, no type guard."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

FILTER = """
def get_filter(filter):
    if isinstance(filter, str):
        raise TypeError(
            "String names are not supported for extraction_filter. Use a function such as "
            "data_filter directly."
        )
    return filter
"""


SOURCE = '''
class URLError(OSError):
    pass


class Opener:
    def open_ftp(self, url):
        """Use FTP protocol."""
        if not isinstance(url, str):
            raise URLError("ftp error: proxy support for ftp protocol currently not implemented")
        return url

    def open_file(self, url):
        if not isinstance(url, str):
            raise TypeError("url must be a str, not supported: %r" % (url,))
        return url
'''


def test_a_type_test_that_turns_a_case_away(tmp_path: Path) -> None:
    """Blind review stop 35 (record 03): "Pass url to open_ftp() as an instance of
    str", the tip "Check isinstance(url, str)", the strategy ``type-guard`` and the tag
    ``type-mismatch`` for ``URLopener.open_ftp``, whose message says ftp proxies are not
    implemented: ``URLopener.open`` passes a tuple there when a proxy is set."""
    items = one_file_items(tmp_path, "m.py", SOURCE)
    by_message = {r["errorMessage"]: r for r, _ in items}
    ftp = by_message["ftp error: proxy support for ftp protocol currently not implemented"]
    assert ftp["solutions"] == [
        "The message says what the library does not support (“ftp error: proxy support "
        "for ftp protocol currently not implemented”): the type test before it turns away "
        "any `url` that is not an instance of `str`. Calling `Opener.open_ftp()` yourself, "
        "pass `url` as an instance of `str`; where the library passes `url` on for you, "
        "avoid the setup the message names."
    ]
    # the type guard and the situation say the same of a direct call
    assert "pass url as an instance of str" in ftp["typeGuard"]
    assert "passes `url` as anything but an instance of `str`" in ftp["commonSituations"]
    assert ftp["preventionTips"] == []
    assert ftp["handlingStrategy"] != "type-guard"
    assert ftp["backgroundTag"] != "type-mismatch"
    # a message that names the type keeps the type requirement
    typed = next(r for m, r in by_message.items() if m.startswith("url must be"))
    assert typed["handlingStrategy"] == "type-guard"
    assert typed["backgroundTag"] == "type-mismatch"
    # "String names are not supported ... Use a function" names the type to pass
    # (``tarfile.TarFile._get_filter_function``): its own advice stays the fix
    (tmp_path / "f").mkdir()
    ((filtered, _),) = one_file_items(tmp_path / "f", "f.py", FILTER)
    assert filtered["solutions"][0].startswith("Follow the message's own advice")
    assert filtered["backgroundTag"] == "type-mismatch"


FAST = """
def f(x, mode):
    if isinstance(x, str):
        if mode == "fast":
            raise NotImplementedError("fast mode not supported")
    return x


def g(x, mode):
    if mode == "fast":
        if not isinstance(x, str):
            raise NotImplementedError("fast mode not supported")
    return x
"""


def test_a_type_test_is_no_unsupported_case_unless_it_is_the_one_condition(
    tmp_path: Path,
) -> None:
    """Re-read of the merged change (session 37): ``isinstance(x, str)`` firing for a
    ``str`` is avoided by ``bytes``, and beside ``mode == "fast"`` the mode stays a cause;
    "no argument of another type avoids NotImplementedError" was false and dropped the
    ``mode`` requirement."""
    items = one_file_items(tmp_path, "m.py", FAST)
    by_function = {r["lineNumber"]: r for r, _ in items}
    assert len(by_function) == 2
    for record in by_function.values():
        (solution,) = record["solutions"]
        assert "does not support" not in solution
        assert "`mode` as a value other than `'fast'`" in solution
