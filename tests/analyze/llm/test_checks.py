"""Code must parse; identifiers the answer relies on must exist in the repository."""

from __future__ import annotations

from typing import Any

from errdex.analyze.llm.checks import (
    Vocabulary,
    claimed_names,
    code_problems,
    code_segments,
    envelope_text,
    language_of,
    unknown_identifiers,
)
from errdex.analyze.llm.schema import LlmProse, parse_answer

from .fake_server import valid_answer

PROMPT = "Statement: raise ValueError (builtins.ValueError)\n"


def prose(**changes: Any) -> LlmProse:
    return parse_answer(valid_answer(PROMPT) | changes)


def test_language_by_suffix() -> None:
    assert language_of("pkg/mod.py") == "python"
    assert language_of("pkg/stub.pyi") == "python"
    assert language_of("src/lib.rs") is None


def test_example_fix_halves_are_parsed_separately() -> None:
    fix = "// before\ny = spin(w, -1)\n// after\ny = spin(w, 1)"
    assert code_segments("exampleFix", fix) == ["\ny = spin(w, -1)\n", "\ny = spin(w, 1)"]
    assert code_problems(prose(exampleFix=fix), "python") == {}
    assert code_problems(prose(exampleFix="# before\n    x = f(\n# after\nx = 1"), "python")


def test_code_that_does_not_parse_is_reported_per_field() -> None:
    problems = code_problems(
        prose(tryCatchPattern="try:\n    spin(\nexcept", typeGuard="isinstance(w, Widget)"),
        "python",
    )
    assert list(problems) == ["tryCatchPattern"]
    assert "not valid Python" in problems["tryCatchPattern"]


def test_indented_code_and_newer_syntax_parse() -> None:
    code = "    def f[T](x: T) -> T:\n        return x"
    assert code_problems(prose(validationCode=code), "python") == {}


def test_unknown_languages_are_unchecked_not_failed() -> None:
    assert code_problems(prose(tryCatchPattern="match x { _ => () }"), None) == {}


def test_claims_skip_names_the_snippet_binds_and_placeholders() -> None:
    code = (
        "import numbers\n"
        "from widgets.core import spin as turn\n"
        "def safe(w, speed):\n"
        "    if isinstance(speed, numbers.Real):\n"
        "        return turn(w, speed=speed)\n"
        "    return w.reset_all()\n"
    )
    names = [name for _, name in claimed_names(prose(validationCode=code), "python")]
    assert "widgets" in names and "spin" in names and "reset_all" in names and "speed" in names
    assert "turn" not in names and "safe" not in names and "w" not in names


def test_unknown_identifiers_are_flagged_once_with_their_field() -> None:
    vocabulary = Vocabulary(["def spin(widget, speed):\n    widget.rotate(speed)"])
    answer = prose(
        exampleFix="// before\nspin(w, -1)\n// after\nwidget.rotate_fast(w)",
        documentation="Use `spin` or `widgets.turbo` instead; `turbo` again.",
    )
    flagged = unknown_identifiers(answer, "python", vocabulary)
    assert {"field": "exampleFix", "name": "rotate_fast"} in flagged
    assert {"field": "documentation", "name": "widgets"} in flagged
    assert {"field": "documentation", "name": "turbo"} in flagged
    names = [f["name"] for f in flagged]
    assert len(names) == len(set(names))
    assert "spin" not in names and "print" not in names and "ValueError" not in names


def test_vocabulary_ignores_what_analysts_wrote() -> None:
    envelope = {
        "record": {"sourceCode": "x = 1", "errorMessage": "bad", "errorClass": "ValueError"},
        "evidence": {
            "site": {"qualname": "pkg.real_function"},
            "llm": {"unknownIdentifiers": [{"name": "invented_name"}]},
        },
    }
    vocabulary = Vocabulary([envelope_text(envelope)])
    assert "real_function" in vocabulary
    assert "invented_name" not in vocabulary
