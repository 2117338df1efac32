import textwrap
textwrap.wrap('hello world', width=0)
