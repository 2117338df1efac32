import statistics
statistics.stdev([1.0])
