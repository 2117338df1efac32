# ruff: noqa  (misuse on purpose: users write code like this)
import subprocess

subprocess.run(["true"], capture_output=True, stdout=subprocess.PIPE)
