import html.parser
html.parser.HTMLParser().feed(None)
