# ruff: noqa  (misuse on purpose: users write code like this)
import subprocess, sys

subprocess.run([sys.executable, "-c", "import time; time.sleep(5)"], timeout=0.2)
