import importlib
importlib.import_module('.sub')
