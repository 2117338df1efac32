"""An entry point called by its name must run for a class that runs the chain below it."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import ON_311, one_file_items, stdlib_items

_LOADERS = (
    "__all__ = ['BaseLoader', 'ChoiceLoader', 'DictLoader', 'Wrapper']\n"
    "\n\n"
    "class BaseLoader:\n"
    "    def get_source(self, name):\n"
    "        raise NotImplementedError('no source access')\n"
    "\n"
    "    def load(self, name):\n"
    "        return self.get_source(name)\n"
    "\n\n"
    "class ChoiceLoader(BaseLoader):\n"
    "    def get_source(self, name):\n"
    "        raise LookupError('choice: template not found')\n"
    "\n"
    "    def load(self, name):\n"
    "        return None\n"
    "\n\n"
    "class DictLoader(BaseLoader):\n"
    "    def get_source(self, name):\n"
    "        raise KeyError('dict: template not found')\n"
    "\n\n"
    "class Wrapper(ChoiceLoader):\n"
    "    def load(self, name):\n"
    "        return BaseLoader.load(self, name)\n"
)


def _entries(items: list[tuple[dict, dict]], message: str) -> list[str]:
    (evidence,) = [e for r, e in items if message in r["errorMessage"]]
    return [e["qualname"] for e in evidence["entryPoints"]]


def test_a_method_every_class_of_the_lookup_overrides_is_no_entry_point(
    tmp_path: Path,
) -> None:
    """Blind review stop 36 (jinja2 ``BaseLoader.load``): ``self.get_source`` reaches
    ``ChoiceLoader.get_source`` only on a ``ChoiceLoader``, which runs its own ``load``.
    ``DictLoader`` inherits ``load``: ``BaseLoader.load`` is its way in; ``Wrapper.load``
    runs the base method on its own ``self`` and stays."""
    items = one_file_items(tmp_path, "m.py", _LOADERS)
    choice = _entries(items, "choice: template not found")
    assert "m.BaseLoader.load" not in choice
    assert "m.Wrapper.load" in choice
    assert "m.BaseLoader.load" in _entries(items, "dict: template not found")


@ON_311
def test_selectors_base_modify_is_no_way_to_the_implementations_register() -> None:
    """``BaseSelector.modify`` calls ``self.register``, which raises "Invalid events" in
    ``_BaseSelectorImpl.register``; but ``_BaseSelectorImpl`` overrides ``modify``, so on
    no selector that runs that ``register`` does ``sel.modify(…)`` run the base method
    (selectors.py 137, 206, 254)."""
    items = stdlib_items("selectors.py")
    named = _entries(items, "Invalid events")
    assert "selectors.BaseSelector.modify" not in named
    assert "selectors.SelectSelector.register" in named


_DIAMOND = (
    "class Base:\n"
    "    def prepare(self):\n"
    "        raise NotImplementedError('prepare must be overridden')\n"
    "\n"
    "    def parse(self):\n"
    "        return self.prepare()\n"
    "\n\n"
    "class Left(Base):\n"
    "    pass\n"
    "\n\n"
    "class Right(Base):\n"
    "    def prepare(self):\n"
    "        return None\n"
    "\n\n"
    "class Both(Left, Right):\n"
    "    pass\n"
    "\n\n"
    "def parse_both():\n"
    "    parser = Both()\n"
    "    return parser.parse()\n"
)


def test_a_diamond_runs_the_method_its_c3_order_finds(tmp_path: Path) -> None:
    """``Both(Left, Right)``: Python looks ``prepare`` up in Both, Left, Right, Base, so
    ``Both().parse()`` runs ``Right.prepare`` and returns None (run: it does). A
    depth-first walk over the bases (Both, Left, Base) found ``Base.prepare`` and kept
    ``parse_both`` as a way to the raise."""
    items = one_file_items(tmp_path, "m.py", _DIAMOND)
    entries = _entries(items, "prepare must be overridden")
    assert "m.parse_both" not in entries
    assert "m.Base.parse" in entries
    ns: dict[str, object] = {}
    exec(compile(_DIAMOND, "m.py", "exec"), ns)
    assert ns["parse_both"]() is None  # type: ignore[operator]
