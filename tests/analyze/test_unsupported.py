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
        "for ftp protocol currently not implemented”): the type test before it turns that "
        "case away rather than asking for another type, so no argument of another type "
        "avoids `URLError`; avoid the setup the message names."
    ]
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
