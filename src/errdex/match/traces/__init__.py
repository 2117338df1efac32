"""Stack-trace parsers of runtimes other than Python, one module per runtime (see :mod:`errdex.match.foreign`)."""
