"""Calls with their enclosing handlers and known arguments."""

from __future__ import annotations

import ast

from errdex.analyze.callsites import CallSite, Handler, call_sites

SOURCE = """
def f(path, mode="r"):
    try:
        with contextlib.suppress(KeyError):
            g(path, "w", level=-1)
    except (OSError, ValueError) as exc:
        raise ReadError("bad") from exc
    except Exception:
        log(exc)
        raise
    except:
        pass
    finally:
        close(path)
    mode = mode.lower()
    for item in items:
        h(*path, **kw)
    return [lambda q: q for _ in ()]
"""


def sites() -> tuple[list[CallSite], frozenset[str]]:
    node = ast.parse(SOURCE).body[0]
    assert isinstance(node, ast.FunctionDef)
    return call_sites(node)


def test_handlers_around_a_call_innermost_first() -> None:
    found, _ = sites()
    g = next(s for s in found if s.ref == ("g",))
    assert g.tries == (
        (Handler(4, (("KeyError",),), None, False),),
        (
            Handler(6, (("OSError",), ("ValueError",)), ("ReadError",), False),
            Handler(8, (("Exception",),), None, True),
            Handler(11, (), None, False),
        ),
    )
    assert g.args == (("name", "path"), ("const", "w"))
    assert g.keywords == (("level", ("const", -1)),)
    # a handler's and a finally block's calls are outside the try
    assert next(s for s in found if s.ref == ("log",)).tries == ()
    assert next(s for s in found if s.ref == ("close",)).tries == ()


def test_starred_arguments_and_rebound_names() -> None:
    found, rebound = sites()
    h = next(s for s in found if s.ref == ("h",))
    assert h.starred and h.args == ()
    assert {"mode", "item", "exc", "q", "_"} <= rebound
    assert "path" not in rebound
