"""Parsers of other runtimes' stack traces, one module per runtime (see :mod:`errdex.match.foreign`)."""
