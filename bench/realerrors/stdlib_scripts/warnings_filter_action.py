import warnings
warnings.simplefilter('loud')
