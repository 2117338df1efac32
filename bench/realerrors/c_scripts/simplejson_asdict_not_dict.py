# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: _asdict() must return a dict
import simplejson


class Point:
    def _asdict(self):
        return [1, 2]


simplejson.dumps(Point(), namedtuple_as_object=True)
