class ToyError(Exception):
    pass
