import sys

from sobedesce.cli.main import main

sys.exit(main())
