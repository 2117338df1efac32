import textwrap
textwrap.shorten('hello world foo bar', width=3, placeholder=' [...]')
