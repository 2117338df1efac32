"""The code fields as programs: the reproducer spliced into a try, a check's condition."""

from __future__ import annotations

from errdex.verify.handlers import check_program, condition_of, splice_try
from errdex.verify.sandbox import Sandbox

PATTERN = """\
import json
from json import loads

try:
    loads(text)  # the analyst's call
except json.JSONDecodeError as exc:
    if 'Expecting value' not in str(exc):
        raise
    ...  # handle it"""

REPRODUCER = "import json\ntext = ''\njson.loads(text)"


def test_the_reproducer_takes_the_place_of_the_call_and_comments_stay() -> None:
    spliced = splice_try(PATTERN, REPRODUCER)
    assert spliced is not None
    assert spliced.shown == (
        "import json\ntext = ''\n\ntry:\n    json.loads(text)\n"
        "except json.JSONDecodeError as exc:\n    if 'Expecting value' not in str(exc):\n"
        "        raise\n    ...  # handle it"
    )
    result = Sandbox().run(spliced.program)
    assert result.status == "ok" and result.marks == ("handled",)


def test_a_handler_that_does_not_match_lets_the_error_escape() -> None:
    wrong = PATTERN.replace("'Expecting value'", "'something else'")
    spliced = splice_try(wrong, REPRODUCER)
    assert spliced is not None
    result = Sandbox().run(spliced.program)
    assert result.status == "raised" and result.error_class == "json.decoder.JSONDecodeError"


def test_no_place_for_the_reproducer_gives_none() -> None:
    assert splice_try("x = 1\n", REPRODUCER) is None
    assert splice_try(PATTERN, "") is None
    assert splice_try("try:\n    f()\nfinally:\n    pass\n", REPRODUCER) is None


def test_a_check_is_evaluated_in_the_frame_that_raised() -> None:
    code = "# f raises when this holds:\nif n > 3 and isinstance(box, str):\n    ..."
    condition = condition_of(code)
    assert condition == "n > 3 and isinstance(box, str)"
    reproducer = "def fill(box, n):\n    if n > 3:\n        raise ValueError(n)\n    return box\nfill('b', 9)"
    assert Sandbox().run(check_program(reproducer, condition)).marks == ("true",)
    assert Sandbox().run(check_program(reproducer, "n < 3")).marks == ("false",)
    assert Sandbox().run(check_program("x = 1", condition)).marks == ("no error",)
    assert condition_of("x = 1") is None


def test_the_statement_that_raised_goes_into_the_try_and_what_follows_is_left_out() -> None:
    reproducer = "import json\nbad = json.loads('{')\nprint('never')"
    spliced = splice_try(PATTERN, reproducer, raised_line=2)
    assert spliced is not None
    assert "    bad = json.loads('{')" in spliced.shown and "never" not in spliced.shown
    assert Sandbox().run(spliced.program).status == "raised"  # 'Expecting value' is not it
    ok = splice_try(PATTERN.replace("Expecting value", "Expecting property"), reproducer, 2)
    assert ok is not None and Sandbox().run(ok.program).marks == ("handled",)


def test_a_decorated_class_that_raises_when_defined_is_wrapped_whole() -> None:
    reproducer = "def boom(cls):\n    raise TypeError('no')\n\n@boom\nclass C:\n    x = 1"
    pattern = "try:\n    C()\nexcept TypeError as exc:\n    ...  # handle"
    spliced = splice_try(pattern, reproducer, raised_line=4)
    assert spliced is not None and "    @boom\n    class C:" in spliced.shown
    assert Sandbox().run(spliced.program).marks == ("handled",)


def test_a_future_import_of_the_reproducer_stays_first() -> None:
    reproducer = "from __future__ import annotations\nimport json\njson.loads('')"
    spliced = splice_try(PATTERN, reproducer, raised_line=3)
    assert spliced is not None
    assert spliced.shown.startswith("from __future__ import annotations\n")
    assert Sandbox().run(spliced.program).marks == ("handled",)
