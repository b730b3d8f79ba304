"""`python -m xiangqi_shards`: the driver's command line."""

import sys

from .driver import main

sys.exit(main())
