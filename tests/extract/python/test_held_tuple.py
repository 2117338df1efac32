"""``raise error[0]("…")`` where ``error = (error, OSError)`` (``dbm``): the class is the
one the module-level tuple holds, when nothing binds the name again (issue 10: the record
said its class was "what calling ``error[0]`` gives")."""

from __future__ import annotations

from pathlib import Path

from ._fixture import package_on_disk, sites_by_line

DB = """\
class error(Exception):
    pass


error = (error, OSError)
kinds = (KeyError, ValueError)


def open(file, flag):
    if flag == "x":
        raise error[0]("db type could not be determined")
    if flag == "y":
        raise error[1]("other")
    raise kinds[1]("bad kind")


kinds = (TypeError,)
"""


def test_an_item_of_a_settled_module_tuple_is_the_class_it_holds(tmp_path: Path) -> None:
    with package_on_disk(tmp_path, "pkg", {"db": DB}) as root:
        found = sites_by_line(root, "src/pkg/db.py")
    classes = {line: s.qualified_class for line, s in found.items()}
    assert classes[11] == "pkg.db.error"
    assert classes[13] == "builtins.OSError"
    assert found[11].template.display == "db type could not be determined"
    assert classes[14] is None  # ``kinds`` is bound again after the ``def``
