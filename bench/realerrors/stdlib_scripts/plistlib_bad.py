import plistlib
plistlib.loads(b'not a plist')
