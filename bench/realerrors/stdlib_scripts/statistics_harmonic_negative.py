import statistics
statistics.harmonic_mean([1, -2])
