from fractions import Fraction
Fraction(1, 0)
