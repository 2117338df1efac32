# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: items must return 2-tuples
import simplejson


class Row(dict):
    def items(self):
        return [("a", 1, "extra")]


simplejson.dumps(Row(a=1), sort_keys=True)
