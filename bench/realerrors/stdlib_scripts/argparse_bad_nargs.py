import argparse
p = argparse.ArgumentParser()
p.add_argument('--x', nargs=0)
