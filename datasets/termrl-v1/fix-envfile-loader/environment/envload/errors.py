class EnvError(Exception):
    """A syntax error; ``line`` is the 1-based line where the entry starts."""

    def __init__(self, line, message):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message
