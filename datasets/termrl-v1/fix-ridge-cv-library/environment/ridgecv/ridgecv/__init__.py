"""Ridge regression with k-fold alpha selection (see README.md)."""
