"""Meeting the error where it happens: the live exception turned into errdex's answer.

:mod:`.live` turns a live exception into the paste model and answers it, :mod:`.catalogue`
finds the catalogue to ask, :mod:`.block` renders the short block (text or HTML) and
:mod:`.hook` installs it on ``sys.excepthook``, threads and asyncio. Nothing here is
imported by ``import errdex.integrations``: each integration loads only what it uses, so
that a process that never fails pays (almost) nothing.
"""

from __future__ import annotations
