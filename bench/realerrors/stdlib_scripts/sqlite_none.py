import graphlib
ts = graphlib.TopologicalSorter({'a': {'b'}, 'b': {'a'}})
list(ts.static_order())
