"""python3 -m weft: weft's command line, the same as the weft executable's."""

import os
import sys

from weft import main

# The program reproduce lines name: the weft executable that handed the command over, else this.
program = os.environ.pop("WEFT_PROGRAM", None) or "python3 -m weft"
sys.exit(main([program, *sys.argv[1:]]))
