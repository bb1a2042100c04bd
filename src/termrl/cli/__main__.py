"""`python -m termrl.cli` runs the command line."""

from termrl.cli import main

main()
