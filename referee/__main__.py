"""`python -m referee`: the same command line as the `referee` script."""

from referee.cli import main

if __name__ == "__main__":
    main()
