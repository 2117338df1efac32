# ruff: noqa  (misuse on purpose: users write code like this)
import argparse

p = argparse.ArgumentParser()
p.add_argument("--x", nargs=0)
