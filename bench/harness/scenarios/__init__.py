"""Every scenario bench/run knows, in the order --list names them."""
from harness.scenarios.copies import Copies
from harness.scenarios.cpu_costs import CpuCosts
from harness.scenarios.findings import SCRIPTS
from harness.scenarios.io import Io
from harness.scenarios.jitter import Jitter
from harness.scenarios.memory import Memory
from harness.scenarios.report_costs import ReportCosts
from harness.scenarios.report_peers import ReportPeers
from harness.scenarios.startup import Startup

ALL = [Copies(), Memory(), CpuCosts(), Jitter(), Io(), ReportCosts(), ReportPeers(), Startup(), *SCRIPTS]
BY_NAME = {s.name: s for s in ALL}
