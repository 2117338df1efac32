import subprocess, sys
subprocess.check_call([sys.executable, '-c', 'raise SystemExit(3)'])
