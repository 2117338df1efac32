import ast
ast.literal_eval('__import__("os")')
