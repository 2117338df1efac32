# ruff: noqa  (misuse on purpose: users write code like this)
import ast

ast.literal_eval('__import__("os")')
