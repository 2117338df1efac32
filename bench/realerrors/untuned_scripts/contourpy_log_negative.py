# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/base_impl.h:160
from contourpy import ZInterp, contour_generator

contour_generator(z=[[-1.0, 1.0], [2.0, 3.0]], z_interp=ZInterp.Log)
