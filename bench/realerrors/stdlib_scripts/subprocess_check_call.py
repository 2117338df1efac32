# ruff: noqa  (misuse on purpose: users write code like this)
import subprocess, sys

subprocess.check_call([sys.executable, "-c", "raise SystemExit(3)"])
