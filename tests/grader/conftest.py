import sys
from pathlib import Path

# course_fixture.py (shared by these tests and benchmarks/autograde_parallel.py) sits here
sys.path.insert(0, str(Path(__file__).resolve().parent))
