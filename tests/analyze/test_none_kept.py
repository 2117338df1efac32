"""A parameter bound again only where it is not ``None`` keeps a caller's ``None``."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

_PROXY = (
    "__all__ = ['Transport', 'Client', 'proxied', 'truthy', 'plain', 'shadowed',"
    " 'otherwise', 'looped']\n"
    "\n\n"
    "class URL:\n"
    "    def __init__(self, text):\n"
    "        self.scheme = text.split(':')[0]\n"
    "\n\n"
    "class Proxy:\n"
    "    def __init__(self, url):\n"
    "        self.url = URL(url)\n"
    "\n\n"
    "class Transport:\n"
    "    def __init__(self, verify=True, proxy=None):\n"
    "        proxy = Proxy(url=proxy) if isinstance(proxy, (str, URL)) else proxy\n"
    "        if proxy is None:\n"
    "            self.pool = verify\n"
    "        elif proxy.url.scheme == 'socks5':\n"
    "            raise ImportError('Using SOCKS proxy, but socksio is missing')\n"
    "\n\n"
    "class Client:\n"
    "    def __init__(self, verify=True, proxy=None):\n"
    "        self.plain = self._init_transport(verify)\n"
    "        if proxy:\n"
    "            self.proxied = self._init_proxy_transport(verify, proxy)\n"
    "\n"
    "    def _init_transport(self, verify):\n"
    "        return Transport(verify=verify)\n"
    "\n"
    "    def _init_proxy_transport(self, verify, proxy):\n"
    "        return Transport(verify=verify, proxy=proxy)\n"
    "\n\n"
    "def proxied(url):\n"
    "    return Transport(proxy=url)\n"
    "\n\n"
    "def _timeout(timeout=None):\n"
    "    if timeout:\n"
    "        timeout = float(timeout)\n"
    "    if timeout is not None and timeout < 0:\n"
    "        raise ValueError('negative timeout')\n"
    "\n\n"
    "def truthy():\n"
    "    _timeout()\n"
    "\n\n"
    "def _any(value=None):\n"
    "    value = value if value is not None else 0\n"
    "    if value is not None:\n"
    "        raise ValueError('a value given')\n"
    "\n\n"
    "def plain():\n"
    "    _any()\n"
    "\n\n"
    "class Abstract(type):\n"
    "    def __instancecheck__(cls, obj):\n"
    "        return True\n"
    "\n\n"
    "class Anything(metaclass=Abstract):\n"
    "    pass\n"
    "\n\n"
    "def _checked(obj=None):\n"
    "    obj = 1 if isinstance(obj, Anything) else obj\n"
    "    if obj is not None:\n"
    "        raise ValueError('an object given')\n"
    "\n\n"
    "def shadowed():\n"
    "    _checked()\n"
    "\n\n"
    "def _else(arg=None):\n"
    "    if arg is None:\n"
    "        pass\n"
    "    else:\n"
    "        arg = str(arg)\n"
    "    if arg is not None:\n"
    "        raise ValueError('an else arg given')\n"
    "\n\n"
    "def otherwise():\n"
    "    _else()\n"
    "\n\n"
    "def _loop(item=None, items=()):\n"
    "    for item in items:\n"
    "        pass\n"
    "    if item is not None:\n"
    "        raise ValueError('a looped item')\n"
    "\n\n"
    "def looped():\n"
    "    _loop(None, (1,))\n"
)


def _entries(items: list[tuple[dict, dict]], message: str) -> list[str]:
    (evidence,) = [e for r, e in items if r["errorMessage"].startswith(message)]
    return [e["qualname"] for e in evidence["entryPoints"]]


def test_a_transport_built_without_proxy_is_no_way_to_the_proxy_raise(
    tmp_path: Path,
) -> None:
    """Blind review stop 36 record 29 / stop 37 record 28 (httpx): ``_init_transport``
    passes no ``proxy``; ``proxy = Proxy(url=proxy) if isinstance(proxy, (str, URL))
    else proxy`` keeps that ``None``, so ``Client.__init__`` reaches the SOCKS raise
    through ``_init_proxy_transport`` only; ``proxied`` passes its own ``url``, which
    is not said to be ``proxy`` (the body binds that again)."""
    items = one_file_items(tmp_path, "m.py", _PROXY)
    (evidence,) = [e for r, e in items if r["errorMessage"].startswith("Using SOCKS proxy")]
    ways = {e["qualname"]: e for e in evidence["entryPoints"]}
    assert ways["m.Client.__init__"]["via"][1] == "m.Client._init_proxy_transport"
    assert "m.proxied" in ways
    assert "proxy" not in ways["m.proxied"].get("passes", {})


def test_a_binding_under_a_test_false_for_none_keeps_it(tmp_path: Path) -> None:
    """``if timeout: timeout = float(timeout)`` and ``else: arg = str(arg)`` under ``if
    arg is None``: a caller's ``None`` stays, and ``is not None`` is false. Not so
    where ``value if value is not None else 0`` replaces ``None``, a class whose
    metaclass answers ``isinstance`` may take ``None``, or a ``for`` target binds the
    parameter (no assignment judged): each of those callers stays."""
    items = one_file_items(tmp_path, "m.py", _PROXY)
    assert "m.truthy" not in _entries(items, "negative timeout")
    assert "m.otherwise" not in _entries(items, "an else arg given")
    assert "m.plain" in _entries(items, "a value given")
    assert "m.shadowed" in _entries(items, "an object given")
    assert "m.looped" in _entries(items, "a looped item")


_TWO_SITES = (
    "__all__ = ['caller_five']\n"
    "\n\n"
    "def note(p):\n"
    "    return p\n"
    "\n\n"
    "def conv(p):\n"
    "    return None if p == 5 else p\n"
    "\n\n"
    "def _f(p=None):\n"
    "    note(p)\n"
    "    if p is None:\n"
    "        raise ValueError('no p at first')\n"
    "    p = conv(p) if p else p\n"
    "    if p is None:\n"
    "        raise ValueError('no p after conv')\n"
    "\n\n"
    "def caller_five():\n"
    "    _f(5)\n"
)


def test_a_held_parameter_is_not_walked_as_one_passed_on(tmp_path: Path) -> None:
    """Re-review of a44 (s2.py): both raises test ``p is None``; the first reads what
    the caller passed (``5``: not ``None``, so ``caller_five`` is no way), the second
    reads ``conv(5)``, which is ``None``: ``caller_five()`` raises "no p after conv".
    The walk cache took the two for one (same condition, same name ``p``) and gave
    the second the first's answer."""
    items = one_file_items(tmp_path, "m.py", _TWO_SITES)
    assert "m.caller_five" not in _entries(items, "no p at first")
    assert "m.caller_five" in _entries(items, "no p after conv")


_OWN_INT = (
    "__all__ = ['default_call', 'twice_call']\n"
    "\n\n"
    "class _Any(type):\n"
    "    def __instancecheck__(cls, obj):\n"
    "        return True\n"
    "\n\n"
    "class int(metaclass=_Any):\n"
    "    pass\n"
    "\n\n"
    "str = _Any('str', (), {})\n"
    "str = _Any('str', (), {})\n"
    "\n\n"
    "def _conv(x):\n"
    "    return 0\n"
    "\n\n"
    "def _check(x=None):\n"
    "    x = _conv(x) if isinstance(x, int) else x\n"
    "    if x is not None:\n"
    "        raise ValueError('x given')\n"
    "\n\n"
    "def default_call():\n"
    "    _check()\n"
    "\n\n"
    "def _twice(y=None):\n"
    "    y = _conv(y) if isinstance(y, str) else y\n"
    "    if y is not None:\n"
    "        raise ValueError('y given')\n"
    "\n\n"
    "def twice_call():\n"
    "    _twice()\n"
)


def test_a_module_class_named_as_a_builtin_is_not_the_builtin(tmp_path: Path) -> None:
    """Re-review of a44 (s4.py): the module's own ``int`` answers ``isinstance(None,
    int)`` with True, so ``x`` becomes ``0`` and ``default_call()`` raises; a ``str``
    the module binds twice is no builtin either. The module's names are checked before
    the condition is judged with builtins."""
    items = one_file_items(tmp_path, "m.py", _OWN_INT)
    assert "m.default_call" in _entries(items, "x given")
    assert "m.twice_call" in _entries(items, "y given")
