from grader.autograde.cli import main

raise SystemExit(main())
