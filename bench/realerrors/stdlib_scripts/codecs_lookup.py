import codecs
codecs.lookup('utf-42')
