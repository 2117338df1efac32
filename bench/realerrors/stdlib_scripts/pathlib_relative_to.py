from pathlib import Path
Path('/usr/lib').relative_to('/etc')
