"""A public docstring's sentence on the parameter the check reads, quoted as a solution."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.doc_requirement import said_of

from .stdlib_items import one_file_items

SOURCE = '''
def register(name, function, extra_args=None, description=""):
    """Registers a format.

    name is the name of the format. If provided, extra_args is a sequence of
    (name, value) tuples that will be passed to the callable. description can be
    given to describe the format.
    """
    if extra_args is None:
        extra_args = []
    if not isinstance(extra_args, (tuple, list)):
        raise TypeError("extra_args needs to be a sequence")
    for element in extra_args:
        if not isinstance(element, (tuple, list)) or len(element) != 2:
            raise TypeError("extra_args elements are : (arg_name, value)")
    if not description and name == "x":
        raise ValueError("x needs a description")
'''


def test_the_docstring_says_what_the_checked_parameter_is(tmp_path: Path) -> None:
    """Blind review 2026-12-06 (records 03, 35): "errdex found no fix" for
    ``shutil.register_archive_format``, whose docstring says what ``extra_args`` must
    be; ``extra_args`` is bound again before the check, so no requirement in the
    caller's terms is known, but the docstring's is."""
    items = one_file_items(tmp_path, "m.py", SOURCE)
    by_message = {r["errorMessage"]: r["solutions"] for r, _ in items}
    said = (
        "The docstring of `register()` says of `extra_args`: “If provided, extra_args is a "
        "sequence of (name, value) tuples that will be passed to the callable”."
    )
    assert said in by_message["extra_args needs to be a sequence"]
    # the check reads the loop's item: the parameter the loop iterates
    assert said in by_message["extra_args elements are : (arg_name, value)"]
    # a check that reads other parameters does not quote this one's
    assert not any("`extra_args`" in s for s in by_message["x needs a description"])


def test_only_a_sentence_whose_subject_is_the_parameter() -> None:
    doc = (
        "Encode a dict or sequence of two-element tuples into a URL query string.\n\n"
        "If any values in the query arg are sequences and doseq is true, each sequence\n"
        "element is converted to a separate parameter.\n\n"
        "If the query arg is a sequence of two-element tuples, the order is kept."
    )
    assert said_of(doc, "query") is None  # a condition, not what it must be
    assert said_of("The query arg must be a mapping. More.", "query") == (
        "The query arg must be a mapping."
    )
    # a clause about another thing after the parameter's: "exc_info is a tuple"
    assert said_of("x is set; path is the argument that failed; and y is a tuple.", "path") is None


QUOTED = '''
def make(cls_name, fields):
    """Return a new class.

    The class name will be 'cls_name'.  'fields' is an iterable
    of either (name), (name, type) or (name, type, Field) objects.
    """
    for item in fields:
        if isinstance(item, str):
            name = item
        elif len(item) == 2:
            name, tp = item
        else:
            raise TypeError(f"Invalid field: {item!r}")
'''


def test_a_parameter_named_in_quotes(tmp_path: Path) -> None:
    """Blind review stop 35 (record 01): "errdex found no fix" for
    ``dataclasses.make_dataclass``, whose docstring gives the allowed forms of
    ``'fields'``; the name in quotes is still the sentence's subject."""
    items = one_file_items(tmp_path, "m.py", QUOTED)
    (solutions,) = [r["solutions"] for r, _ in items if r["errorMessage"].startswith("Invalid")]
    assert solutions[0] == (
        "The docstring of `make()` says of `fields`: “'fields' is an iterable of either "
        "(name), (name, type) or (name, type, Field) objects”."
    )
    assert said_of("Use `'mode'` is a string.", "mode") is None  # not the subject


PREFIXED = '''
def compile_all(py_files, prefix=None):
    """Compile files.

    'py_files' is a list of files to compile.  'prefix' is a string that will be
    stripped off of each source filename.
    """
    for file in py_files:
        if prefix:
            if file[: len(prefix)] != prefix:
                raise ValueError("invalid prefix: filename %r doesn't start with %r" % (file, prefix))
'''


def test_the_parameter_the_condition_reads_itself_first(tmp_path: Path) -> None:
    """``distutils.util.byte_compile``: the check reads ``prefix`` and the item of
    ``py_files``; what ``py_files`` is ("a list of files to compile") says nothing of a
    filename that does not start with the prefix, what ``prefix`` is does."""
    items = one_file_items(tmp_path, "m.py", PREFIXED)
    ((record, _),) = items
    assert record["solutions"][0] == (
        "The docstring of `compile_all()` says of `prefix`: “'prefix' is a string that will "
        "be stripped off of each source filename”."
    )
