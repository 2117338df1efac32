"""An abstract method with a private name: the fix is a class that defines it, not
"implement `_make_x`" (a hook no caller calls), where errdex said "found no fix"."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import one_file_items

SOURCE = """
class BaseLoop:
    def _make_transport(self):
        raise NotImplementedError

    def _write(self):
        raise NotImplementedError

    def connect(self):
        return self._make_transport()


class SelectorLoop(BaseLoop):
    def _make_transport(self):
        return 1


class _Private(BaseLoop):
    def _write(self):
        return 2
"""


def test_a_private_hook_names_the_classes_that_define_it(tmp_path: Path) -> None:
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    (text,) = found[4]
    assert text == (
        "`BaseLoop` leaves `_make_transport` to its subclasses: its own raises "
        "`NotImplementedError` with no condition, on an object of `BaseLoop` itself or of a "
        "subclass that does not define `_make_transport`. Use a class that defines it (the "
        "repository's own include `m.SelectorLoop`) or a subclass of one."
    )
    assert found[7] == [NO_FIX]  # only a private class defines it: none to name


HIDDEN = """
import abc


class Base(abc.ABC):
    @abc.abstractmethod
    def _hook(self):
        raise NotImplementedError

    def run(self):
        return self._hook()


class Impl(Base):
    def _hook(self):
        return 1


class Plain:
    def _make(self):
        raise NotImplementedError

    def go(self):
        return self._make()


class Mid(Plain):
    def _make(self):
        raise NotImplementedError("still abstract")


def factory():
    class Local(Plain):
        def _make(self):
            return 2

    return Local()
"""


def test_no_hidden_or_abstract_class_is_named(tmp_path: Path) -> None:
    """``Mid._make`` raises again and ``factory.<locals>.Local`` has no name a caller
    writes: neither is a class to use. Under ``ABCMeta`` no ``Base`` object is made."""
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", HIDDEN)}
    (plain,) = found[21]  # no class to use: the hook is to be defined (subclass_hooks)
    assert plain.startswith("Define `_make(self)` in your subclass of `Plain`: `Plain.go()`")
    assert "Mid" not in plain and "Local" not in plain
    (text,) = found[8]
    assert "on an object of `Base` itself" not in text
    assert "reached only from an override that calls it (`super()._hook(...)`)" in text
    assert "`m.Impl`" in text


MANGLED = """
class Mangled:
    def run(self):
        return self.__step()

    def __step(self):
        raise NotImplementedError


class Sub(Mangled):
    def __step(self):
        return 1
"""


def test_a_mangled_hook_names_no_class_that_defines_it(tmp_path: Path) -> None:
    # ``Sub().run()`` still raises: ``run`` calls ``_Mangled__step``, Sub defines ``_Sub__step``
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", MANGLED)}
    assert not any("m.Sub" in s for s in found[7])
