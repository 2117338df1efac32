# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/contour_generator.cpp:33
from contourpy import contour_generator

cg = contour_generator(z=[[0.0, 1.0], [2.0, 3.0]])
cg.multi_filled([3.0, 1.0, 2.0])
