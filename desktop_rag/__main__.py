"""`python -m desktop_rag` runs the command line (and, with no arguments, the app)."""

from desktop_rag.cli.main import main

raise SystemExit(main())
