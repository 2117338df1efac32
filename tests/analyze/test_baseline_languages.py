"""The extractor's own account of other languages' sites, in their terms and syntax."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.baseline import requirement_from
from errdex.extract.site import Guard
from errdex.scan import scan_checkout
from errdex.source import open_source


def test_requirements_negate_in_the_sites_language() -> None:
    def req(text: str, language: str) -> str | None:
        return requirement_from(Guard("if", text, 1), language)

    assert req("!paths.every((p) => typeof p === 'string')", "javascript") == (
        "paths.every((p) => typeof p === 'string')"
    )
    assert req("n < 0", "c") == "!(n < 0)"
    assert req("!a && b", "go") == "!(!a && b)"
    assert req("n < 0", "python") == "not (n < 0)"
    assert req("not ready", "cython") == "ready"


def test_a_c_site_is_said_to_set_the_error_and_a_js_one_to_throw(tmp_path: Path) -> None:
    (tmp_path / "m.c").write_text(
        "static PyObject *f(PyObject *self, PyObject *arg) {\n"
        "    if (n < 0) {\n"
        '        PyErr_SetString(PyExc_ValueError, "n must not be negative");\n'
        "        return NULL;\n"
        "    }\n"
        "    return arg;\n"
        "}\n"
    )
    (tmp_path / "m.js").write_text(
        "function check(paths) {\n"
        "  if (!paths.every((p) => typeof p === 'string')) {\n"
        "    throw new TypeError('paths must be strings');\n"
        "  }\n"
        "}\n"
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m")
    by_file = {r["filePath"]: r for r, _ in result.items}
    c, js = by_file["m.c"], by_file["m.js"]
    assert c["documentation"].startswith("ValueError set (the C API's error indicator")
    assert c["solutions"] == ["Make sure `!(n < 0)` holds when `f` reaches line 3."]
    assert js["documentation"].startswith("TypeError thrown by `check`")
    assert js["solutions"] == [
        "Make sure `paths.every((p) => typeof p === 'string')` holds when `check` reaches line 3."
    ]
