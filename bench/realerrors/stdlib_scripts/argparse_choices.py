# ruff: noqa  (misuse on purpose: users write code like this)
import argparse

p = argparse.ArgumentParser(exit_on_error=False)
p.add_argument("mode", choices=["fast", "slow"])
p.parse_args(["medium"])
