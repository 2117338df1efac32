"""Stack-trace parsers of other languages' runtimes, one module each (registered in
:mod:`errdex.match.foreign`)."""
