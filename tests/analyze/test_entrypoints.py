"""Which functions are entry points (:mod:`errdex.analyze.entrypoints`)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.entrypoints import PublicApi, entry_points
from errdex.analyze.repo import RepoIndex, build_index
from errdex.source import open_source

_ARCHIVE = (
    "import warnings\n"
    "\n"
    "class Archive:\n"
    "    def close(self):\n"
    "        if self.mode == 'w':\n"
    "            raise ValueError('cannot write the end record')\n"
    "    def __del__(self):\n"
    "        self.close()\n"
    "    def __exit__(self, *exc):\n"
    "        self.close()\n"
    "\n"
    "class Stream:\n"
    "    def __del__(self):\n"
    "        if not self.closed:\n"
    "            warnings.warn('unclosed stream', ResourceWarning)\n"
)


def _parts(tmp_path: Path, name: str, text: str) -> tuple[RepoIndex, Chains, PublicApi]:
    (tmp_path / name).write_text(text)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=[name])
    return index, Chains(index, ClassTree(index)), PublicApi(index)


def test_a_del_method_is_no_entry_point_of_an_exception(tmp_path: Path) -> None:
    # the interpreter prints what ``__del__`` raises and drops it: no caller sees it;
    # ``__exit__`` (a ``with`` block's end) lets it out
    index, chains, api = _parts(tmp_path, "arc.py", _ARCHIVE)
    found = entry_points(index, chains, api, "arc.Archive.close")
    assert [e["qualname"] for e in found] == ["arc.Archive.close", "arc.Archive.__exit__"]
    # a warning ``__del__`` gives is shown: finalizing the object is how users get it
    found = entry_points(index, chains, api, "arc.Stream.__del__", catchable=False)
    assert [e["qualname"] for e in found] == ["arc.Stream.__del__"]


_FRONT = (
    '__all__ = ["match", "search", "sub", "compile", "findall"]\n'
    "\n"
    "def _compile(pattern):\n"
    "    if not pattern:\n"
    "        raise ValueError('empty pattern')\n"
    "\n"
    "def compile(pattern):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def findall(pattern, text):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def helper(pattern):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def match(pattern, text):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def search(pattern, text):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def sub(pattern, repl, text):\n"
    "    return _compile(pattern)\n"
)
#: ``findall`` called once by the library itself: used more, shown sooner.
_USED = _FRONT + "\ndef words(text):\n    return findall('\\\\w+', text)\n"


def test_equally_near_entry_points_by_use_then_the_order_of_all(tmp_path: Path) -> None:
    # five exported functions and one public but unlisted call ``_compile`` directly: the
    # module's ``__all__`` says which it puts first (``re`` lists match, fullmatch, search
    # before compile and findall); alphabetical order showed compile, findall, helper.
    # One the library calls itself comes before those it never calls
    found = entry_points(*_parts(tmp_path, "rx.py", _FRONT), "rx._compile")
    assert [e["qualname"] for e in found] == ["rx.match", "rx.search", "rx.sub"]
    found = entry_points(*_parts(tmp_path, "rx.py", _USED), "rx._compile")
    assert [e["qualname"] for e in found] == ["rx.findall", "rx.match", "rx.search"]


#: ``aifc`` as far as a short file reaches ``_read_long``'s ``EOFError``.
_AIFC = (
    '__all__ = ["Error", "open"]\n'
    "\n"
    "def _read_long(file):\n"
    "    data = file.read(4)\n"
    "    if len(data) < 4:\n"
    "        raise EOFError from None\n"
    "    return data\n"
    "\n"
    "class Aifc_read:\n"
    "    def _read_comm_chunk(self, chunk):\n"
    "        self._nframes = _read_long(chunk)\n"
    "    def initfp(self, file):\n"
    "        self._read_comm_chunk(file)\n"
    "    def __init__(self, f):\n"
    "        self.initfp(f)\n"
    "    def readframes(self, n):\n"
    "        return _read_long(self._file)\n"
    "\n"
    "class Aifc_write:\n"
    "    def readback(self, f):\n"
    "        return _read_long(f)\n"
    "\n"
    "def open(f, mode=None):\n"
    "    return Aifc_read(f)\n"
)


def test_what_users_call_comes_before_plumbing(tmp_path: Path) -> None:
    # the module's ``__all__`` leaves ``Aifc_read`` and ``Aifc_write`` out: ``open``, four
    # calls away, comes before them; but ``open`` returns an ``Aifc_read``, so users call
    # its ``readframes``; ``initfp``, called by ``__init__`` alone, comes after that
    found = entry_points(*_parts(tmp_path, "snd.py", _AIFC), "snd._read_long")
    assert [e["qualname"] for e in found] == [
        "snd.Aifc_read.readframes",
        "snd.open",
        "snd.Aifc_write.readback",
    ]
    found = entry_points(*_parts(tmp_path, "snd.py", _AIFC), "snd.Aifc_read._read_comm_chunk")
    assert [e["qualname"] for e in found] == [
        "snd.open",
        "snd.Aifc_read.__init__",
        "snd.Aifc_read.initfp",
    ]
    # without ``__all__`` the class is public: still its constructor before ``initfp``
    unlisted = _AIFC.replace('__all__ = ["Error", "open"]\n', "").replace("def open", "def _open")
    found = entry_points(*_parts(tmp_path, "snd.py", unlisted), "snd.Aifc_read._read_comm_chunk")
    assert [e["qualname"] for e in found] == ["snd.Aifc_read.__init__", "snd.Aifc_read.initfp"]


#: ``nntplib``: ``login`` users call, and ``__init__`` too (only ``__init__`` calls
#: ``setup``); ``main`` is the module's command line.
_NEWS = (
    '__all__ = ["NNTP"]\n'
    "import sys\n"
    "\n"
    "class NNTP:\n"
    "    def __init__(self, host, user=None):\n"
    "        self.setup(host)\n"
    "        if user:\n"
    "            self.login(user)\n"
    "    def setup(self, host):\n"
    "        self.login(host)\n"
    "    def login(self, user=None):\n"
    '        """Process NNTP authentication."""\n'
    "        if self.authenticated:\n"
    "            raise ValueError('Already logged in.')\n"
    "\n"
    "def main():\n"
    "    s = NNTP(sys.argv[1])\n"
)


def test_a_method_its_constructor_calls_comes_right_after_it(tmp_path: Path) -> None:
    # ``login`` stays first; ``setup`` (only ``__init__`` calls it) comes right after the
    # constructor, though nearer the raise; ``main`` is not in ``__all__`` but ``python
    # -m news`` runs it
    found = entry_points(*_parts(tmp_path, "news.py", _NEWS), "news.NNTP.login")
    assert [e["qualname"] for e in found] == [
        "news.NNTP.login",
        "news.NNTP.__init__",
        "news.NNTP.setup",
    ]
    found = entry_points(*_parts(tmp_path, "news.py", _NEWS), "news.NNTP.setup")
    assert [e["qualname"] for e in found] == ["news.NNTP.__init__", "news.NNTP.setup", "news.main"]


#: ``smtplib`` lists ``SMTP``, not ``LMTP``; ``forkserver.main(fd)`` ends its process but is
#: run by the library in a child, not from a command line; ``Relay`` is plumbing.
_MAIL = (
    '__all__ = ["SMTP", "send"]\n'
    "import os\n"
    "\n"
    "class SMTP:\n"
    "    def connect(self, host):\n"
    "        if not host:\n"
    "            raise ValueError('no host')\n"
    "\n"
    "class LMTP(SMTP):\n"
    "    def open_socket(self, path):\n"
    "        self.connect(path)\n"
    "\n"
    "class Relay:\n"
    "    def relay(self, host):\n"
    "        client = SMTP()\n"
    "        client.connect(host)\n"
    "\n"
    "def serve(fd):\n"
    "    client = SMTP()\n"
    "    client.connect(fd)\n"
    "    os._exit(0)\n"
    "\n"
    "def send(host):\n"
    "    relay = Relay()\n"
    "    return relay.relay(host)\n"
)


def test_a_listed_class_s_subclass_is_offered_a_child_s_main_is_not(tmp_path: Path) -> None:
    found = entry_points(*_parts(tmp_path, "mail.py", _MAIL), "mail.SMTP.connect")
    assert [e["qualname"] for e in found] == [
        "mail.SMTP.connect",
        "mail.LMTP.open_socket",
        "mail.send",
    ]


#: ``getopt``: ``__all__`` lists the two parsers; ``do_longs`` is their step.
_GETOPT = (
    '__all__ = ["GetoptError", "getopt", "gnu_getopt"]\n'
    "\n"
    "class GetoptError(Exception):\n"
    "    pass\n"
    "\n"
    "def getopt(args, longopts):\n"
    "    return do_longs(args[0], longopts)\n"
    "\n"
    "def gnu_getopt(args, longopts):\n"
    "    return do_longs(args[0], longopts)\n"
    "\n"
    "def do_longs(opt, longopts):\n"
    "    if opt not in longopts:\n"
    "        raise GetoptError(opt)\n"
    "\n"
    "def short_has_arg(opt, shortopts):\n"
    "    raise GetoptError(opt)\n"
)


def test_plumbing_a_listed_entry_point_goes_through_is_not_named(tmp_path: Path) -> None:
    # ``do_longs`` filled the third place after the two parsers that call it; an unlisted
    # function no listed one goes through is still named, as nothing else reaches it
    found = entry_points(*_parts(tmp_path, "opts.py", _GETOPT), "opts.do_longs")
    assert [e["qualname"] for e in found] == ["opts.getopt", "opts.gnu_getopt"]
    found = entry_points(*_parts(tmp_path, "opts.py", _GETOPT), "opts.short_has_arg")
    assert [e["qualname"] for e in found] == ["opts.short_has_arg"]
