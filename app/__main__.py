import sys

from app.cli import main

sys.exit(main(sys.argv[1:] or ["serve"]))
