import subprocess
subprocess.run(['true'], capture_output=True, stdout=subprocess.PIPE)
