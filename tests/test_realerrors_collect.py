"""The real-error collector's frame picking (bench/realerrors/frames.py): the true raise site."""

from __future__ import annotations

import importlib.util
import json
import sys
import unittest
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "realerrors"))
from frames import describe_line, first_raise, pick_site
from frames import test_dirs as find_test_dirs


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A fake site-packages: the library ``lib``, a vendored tree inside it, and a test dir."""
    sp = tmp_path / "site-packages"
    for rel in ("lib/core.py", "lib/_vendor/site-packages/dep/x.py", "other/y.py"):
        (sp / rel).parent.mkdir(parents=True, exist_ok=True)
        (sp / rel).write_text("raise ValueError('boom')\n")
    return sp


def test_innermost_library_frame_wins_over_outer_library_and_inner_foreign_frames(
    site: Path,
) -> None:
    frames = [
        (str(site / "other/y.py"), 3, "helper"),  # innermost, but another distribution
        (str(site / "lib/core.py"), 10, "check"),
        (str(site / "lib/core.py"), 20, "api"),
        ("/tmp/tests/test_x.py", 5, "test_x"),
    ]
    assert pick_site(frames, [str(site / "lib")], str(site)) == (
        "lib/core.py",
        10,
        "check",
        str((site / "lib/core.py").resolve()),
    )


def test_pseudo_files_and_nested_site_packages_never_count(site: Path) -> None:
    frames = [
        ("<string>", 1, "<module>"),
        (str(site / "lib/_vendor/site-packages/dep/x.py"), 1, "vendored"),
        (str(site / "lib/core.py"), 4, "api"),
    ]
    picked = pick_site(frames, [str(site / "lib")], str(site))
    assert picked is not None and picked[:2] == ("lib/core.py", 4)


def test_no_frame_inside_the_roots_gives_none(site: Path) -> None:
    frames = [(str(site / "other/y.py"), 1, "f"), ("/tmp/t.py", 2, "g")]
    assert pick_site(frames, [str(site / "lib")], str(site)) is None


def test_a_root_that_is_a_single_module_file(site: Path) -> None:
    (site / "six.py").write_text("raise TypeError\n")
    frames = [(str(site / "six.py"), 1, "<module>")]
    picked = pick_site(frames, [str(site / "six.py")], str(site))
    assert picked is not None and picked[0] == "six.py"


def test_describe_line_tells_raise_from_a_call_and_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(
        "import warnings\n"
        "def f(x):\n"
        "    if x:\n"
        "        raise ValueError(\n"
        "            f'bad {x}'\n"
        "        )\n"
        "    int(x)\n"
        "    warnings.warn(msg.format(x))\n"
        "    raise self.make_error('invalid')\n"
        "    raise FrozenInstanceError\n"
        "    raise error\n"
    )
    inside = describe_line(str(path), 5)  # a line inside a multi-line raise statement
    assert inside["is_python_raise"] is True
    assert inside["site_kind"] == "raise" and inside["raise_style"] == "fstring"
    assert inside["raise_source"] == "        raise ValueError(\n            f'bad {x}'\n        )"
    call = describe_line(str(path), 7)
    assert call["is_python_raise"] is False and call["site_kind"] == "implicit"
    warn = describe_line(str(path), 8)
    assert warn["site_kind"] == "warn_call" and warn["is_python_raise"] is True
    assert describe_line(str(path), 9)["raise_style"] == "helper_call"
    assert describe_line(str(path), 10)["raise_style"] == "class_no_args"
    assert describe_line(str(path), 11)["raise_style"] == "prebuilt_exception"


def test_first_raise_names_the_raise_a_rewritten_traceback_hides(site: Path) -> None:
    # jinja2: Parser.fail raised it, handle_exception re-raised it with the parser's frames
    # dropped; the printed traceback's innermost library frame is the re-raise
    roots, base = [str(site / "lib")], str(site)
    printed = pick_site(
        [("<unknown>", 1, "template"), (str(site / "lib/core.py"), 942, "handle")], roots, base
    )
    assert printed is not None and printed[:2] == ("lib/core.py", 942)
    origin = (str(site / "lib/core.py"), 88, "fail")
    assert first_raise(origin, printed, roots, base) == (
        "lib/core.py",
        88,
        "fail",
        str((site / "lib/core.py").resolve()),
    )


def test_first_raise_leaves_the_printed_site_when_it_is_the_raise_or_outside(site: Path) -> None:
    roots, base = [str(site / "lib")], str(site)
    printed = (
        "lib/core.py",
        10,
        "check",
        str((site / "lib/core.py").resolve()),
    )
    assert first_raise((str(site / "lib/core.py"), 10, "check"), printed, roots, base) is None
    # raised in another distribution and passed on: the library's frame stands
    assert first_raise((str(site / "other/y.py"), 3, "helper"), printed, roots, base) is None
    # raised by code compiled from a template: no file, no catalogued site
    assert first_raise(("<template>", 1, "root"), printed, roots, base) == "generated_code"


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_plugin_notes_the_first_raise_a_rewritten_traceback_drops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = Path(__file__).resolve().parents[1]
    # the plugin wraps unittest's assertRaises context on import: put it back afterwards
    context = unittest.case._AssertRaisesContext
    monkeypatch.setattr(context, "__exit__", context.__exit__)
    # fresh copies: errdex's own harvest plugin module is left as it is
    monkeypatch.setitem(sys.modules, "errdex_harvest_base", None)
    _load("errdex_harvest_base", root / "src/errdex/analyze/harvest/plugin.py")
    plugin = _load("realerrors_plugin_under_test", root / "bench/realerrors/plugin.py")
    monkeypatch.delitem(sys.modules, "realerrors_plugin_under_test")

    def parse() -> None:
        raise KeyError("tag")  # the first raise

    def handle() -> None:
        try:
            parse()
        except KeyError as e:
            raise e.with_traceback(None) from None  # re-raised, the parser's frames gone

    before = sys.gettrace()
    sys.settrace(plugin._global)
    try:
        handle()
    except KeyError as e:
        caught = e
    finally:
        sys.settrace(before)
    origin = plugin._origin(caught)
    assert origin is not None
    assert origin[0] == str(Path(__file__).resolve()) and origin[2] == "parse"
    first = parse.__code__.co_firstlineno + 1
    assert origin[1] == first
    assert caught.__traceback__ is not None
    assert caught.__traceback__.tb_frame.f_code.co_name != "parse"  # the traceback lost it


def test_pick_site_skips_test_directories_inside_a_root(site: Path) -> None:
    # a test file installed inside the library (sklearn/utils/tests/test_x.py) is no site
    (site / "lib/tests").mkdir()
    (site / "lib/tests/test_x.py").write_text("raise ValueError('mine')\n")
    frames = [
        (str(site / "lib/tests/test_x.py"), 1, "helper"),
        (str(site / "lib/core.py"), 1, "api"),
        (str(site / "lib/tests/test_x.py"), 9, "test_api"),
    ]
    roots, base = [str(site / "lib")], str(site)
    assert pick_site(frames, roots, base)[:2] == ("lib/tests/test_x.py", 1)  # type: ignore[index]
    picked = pick_site(frames, roots, base, [str(site / "lib/tests")])
    assert picked is not None and picked[:2] == ("lib/core.py", 1)


def test_test_dirs_lists_the_outermost_test_directories_outside_installed_trees(
    site: Path,
) -> None:
    for rel in ("lib/tests/sub/tests", "lib/utils/tests", "lib/idle_test", "lib/testing"):
        (site / rel).mkdir(parents=True)
    found = find_test_dirs(str(site))
    assert found == [
        str(site / "lib/idle_test"),
        str(site / "lib/tests"),
        str(site / "lib/utils/tests"),
    ]


def test_record_marks_a_raise_in_an_installed_test_directory_as_test_code(site: Path) -> None:
    collect = _load(
        "collect_under_test", Path(__file__).resolve().parents[1] / "bench/realerrors/collect.py"
    )
    (site / "lib/tests").mkdir()
    (site / "lib/tests/test_x.py").write_text("def f():\n    raise ValueError('mine')\n")
    (site / "lib/core.py").write_text("def api(f):\n    f()\n    raise KeyError('k')\n")
    library = {"name": "lib", "version": "1", "top_level": ["lib"]}
    excluded = collect._installed_test_dirs(library, site)
    assert excluded == [str((site / "lib/tests").resolve())]

    def capture(frames: list[list[Any]]) -> dict[str, Any]:
        return {
            "frames": frames,
            "kind": "exception",
            "errorClass": "ValueError",
            "message": "mine",
            "truncated": False,
            "test": "t",
            "via": "pytest.raises",
            "expected": ["ValueError"],
            "match": None,
        }

    outer = [str(site / "lib/tests/test_x.py"), 9, "test_api"]
    passed_on = capture(
        [[str(site / "lib/tests/test_x.py"), 2, "f"], [str(site / "lib/core.py"), 2, "api"], outer]
    )
    row = collect._record(passed_on, library, site, site / "run", excluded)
    assert (row["raise_file"], row["raise_line"]) == ("lib/core.py", 2)
    assert row["site_kind"] == "from_test_code" and row["is_python_raise"] is False
    raised = capture([[str(site / "lib/core.py"), 3, "api"], outer])
    row = collect._record(raised, library, site, site / "run", excluded)
    assert (row["raise_file"], row["raise_line"], row["is_python_raise"]) == (
        "lib/core.py",
        3,
        True,
    )


def test_an_assert_raises_capture_keeps_the_traceback_unittest_drops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    root = Path(__file__).resolve().parents[1]
    # whatever the loads below wrap on unittest's class is put back after the test
    context = unittest.case._AssertRaisesContext
    monkeypatch.setattr(context, "__exit__", context.__exit__)
    monkeypatch.setitem(sys.modules, "errdex_harvest_base", None)
    base = _load("errdex_harvest_base", root / "src/errdex/analyze/harvest/plugin.py")
    _load("realerrors_plugin_under_test", root / "bench/realerrors/plugin.py")
    monkeypatch.delitem(sys.modules, "realerrors_plugin_under_test")
    base._wrap_unittest_raises()
    out = tmp_path / "captures.jsonl"
    monkeypatch.setattr(base._state, "fd", os.open(out, os.O_WRONLY | os.O_CREAT, 0o644))

    def deep() -> None:
        raise ValueError("deep down")

    case = unittest.TestCase()
    with case.assertRaises(ValueError):
        deep()
    case.assertRaises(ValueError, deep)  # the callable form
    os.close(base._state.fd)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        text = line["traceback_text"]
        assert text.startswith("Traceback (most recent call last):")
        assert 'raise ValueError("deep down")' in text and text.endswith("ValueError: deep down\n")


def test_record_marks_a_cython_frame_as_compiled_code_not_test_code(site: Path) -> None:
    collect = _load(
        "collect_under_test", Path(__file__).resolve().parents[1] / "bench/realerrors/collect.py"
    )
    (site / "lib/core.py").write_text("def api(x):\n    return parse(x)\n")
    library = {"name": "lib", "version": "1", "top_level": ["lib"]}
    run = site.parent / "run"
    capture = {
        "frames": [
            [str(run / "lib/_libs/parsing.pyx"), 40, "lib._libs.parsing.parse"],
            [str(site / "lib/core.py"), 2, "api"],
            [str(run / "tests/test_x.py"), 9, "test_api"],
        ],
        "kind": "exception",
        "errorClass": "ValueError",
        "message": "bad",
        "truncated": False,
        "test": "t",
        "via": "pytest.raises",
        "expected": ["ValueError"],
        "match": None,
    }
    row = collect._record(capture, library, site, run, [])
    assert (row["raise_file"], row["raise_line"]) == ("lib/core.py", 2)
    assert row["site_kind"] == "cython" and row["is_python_raise"] is False


def test_per_test_site_keeps_the_first_rows_of_a_test_looping_at_one_site() -> None:
    """more-itertools' test_contains_non_items_with_inexact_step raises 993 messages at one
    line: one behaviour tested, kept as at most ``most`` rows; other tests and sites keep all."""
    collect = _load(
        "collect_under_test", Path(__file__).resolve().parents[1] / "bench/realerrors/collect.py"
    )

    def row(test: str, line: int, message: str) -> dict[str, Any]:
        return {
            "test_id": test,
            "raise_file": "lib/core.py",
            "raise_line": line,
            "message": message,
        }

    loop = [row("t_loop", 7, f"{i} is not in range") for i in range(50)]
    others = [row("t_loop", 9, "other site"), row("t_two", 7, "0 is not in range")]
    kept = collect.per_test_site([*loop, *others], 3)
    assert [r["message"] for r in kept] == [
        "0 is not in range",
        "1 is not in range",
        "2 is not in range",
        "other site",
        "0 is not in range",
    ]
    assert collect.per_test_site(loop, 0) == loop
