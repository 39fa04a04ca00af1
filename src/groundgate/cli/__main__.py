"""`python -m groundgate.cli`: the same as the `groundgate` console script."""

from groundgate.cli import main

main()
