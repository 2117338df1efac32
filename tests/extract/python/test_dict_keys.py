"""A dict the code fills with int keys prints as ``{0: …}``: its template says so, so a
dict of names raised elsewhere no longer fits it (marshmallow's ``List`` field against
``Schema.load``); keys the walk cannot read keep the dict open (``{…}``)."""

from __future__ import annotations

import textwrap

from errdex.extract.python import extract_python
from errdex.template import MessageTemplate

from ._fixture import raised
from .test_runtime_str import DICTS

FIELDS = (
    DICTS  # ``load``: a dict of field names
    + """

def load_list(values):
    errors = {}
    for idx, each in enumerate(values):
        if each is None:
            errors.update({idx: ["Field may not be null."]})
    if errors:
        raise Invalid(errors)


def load_rows(rows):
    errors = {}
    for i in range(len(rows)):
        if not rows[i]:
            errors[i] = ["Empty row."]
    if errors:
        raise Invalid(errors)


def load_counted(values):
    errors = {}
    for idx, each in enumerate(values):
        errors.setdefault(idx, []).append("bad")
    if errors:
        raise Invalid(errors)
"""
)
BY_NAME = "{'age': ['Missing data for required field.']}"


def _templates() -> dict[str | None, MessageTemplate]:
    found = extract_python(textwrap.dedent(FIELDS), "m.py", module="m")
    return {s.function: s.template for s in found}


def test_int_keys_from_enumerate_or_range_are_in_the_template() -> None:
    templates = _templates()
    by_index = str(raised(FIELDS, "load_list([1, None, None])"))
    assert by_index == "{1: ['Field may not be null.'], 2: ['Field may not be null.']}"
    rows = str(raised(FIELDS, "load_rows(['a', ''])"))
    assert rows == "{1: ['Empty row.']}"
    assert templates["load_list"].match(by_index) is not None
    assert templates["load_rows"].match(rows) is not None
    assert templates["load_list"].match(BY_NAME) is None
    assert templates["load_rows"].match(BY_NAME) is None
    # the braces are its literal text, as of any dict: the one-value sites list it
    assert templates["load_list"].runs() == ("{", "", "}")


def test_other_keys_or_other_changes_keep_the_dict_open() -> None:
    templates = _templates()
    assert str(raised(FIELDS, "load({'age': None})")) == BY_NAME
    assert templates["load"].display == "{{…}}"
    assert templates["load"].match(BY_NAME) is not None
    counted = str(raised(FIELDS, "load_counted([1])"))
    assert counted == "{0: ['bad']}"
    assert templates["load_counted"].display == "{{…}}"  # setdefault: keys not followed
    assert templates["load_counted"].match(counted) is not None
