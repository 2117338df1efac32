# ruff: noqa  (misuse on purpose: users write code like this)
import argparse

p = argparse.ArgumentParser(exit_on_error=False)
p.add_argument("--count", type=int)
p.parse_args(["--count", "ten"])
