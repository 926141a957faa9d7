"""What a scenario prints: one row a figure, hostside's and the peer's values over the rounds."""
import statistics
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Spread:
    """Values of one side over the rounds: their median and range."""
    median: float
    low: float
    high: float
    count: int

    @staticmethod
    def of(values):
        values = [v for v in values if v is not None]
        if not values:
            return None
        return Spread(statistics.median(values), min(values), max(values), len(values))

    def overlaps(self, other):
        return self.low <= other.high and other.low <= self.high

    def cell(self, digits):
        f = f"{{:,.{digits}f}}"
        return f"{f.format(self.median)} ({f.format(self.low)}-{f.format(self.high)})"


@dataclass
class Row:
    """One figure: hostside's values, the peer's, and why a side has none (a peer that is not here)."""
    figure: str
    unit: str
    peer: str
    hostside: list = field(default_factory=list)
    peers: list = field(default_factory=list)
    hostside_missing: str = ""
    peer_missing: str = ""
    digits: int = 2
    has_peer: bool = True   # False: a figure of hostside's own (its cost), nothing to set beside it
    verdict: str = None     # a scenario's judgement of the row (report-peers: within tolerance or not); None: no column

    def cells(self):
        hs, pe = Spread.of(self.hostside), Spread.of(self.peers)
        hs_cell = hs.cell(self.digits) if hs else "not run: " + (self.hostside_missing or "no figure")
        pe_cell = "-" if not self.has_peer else pe.cell(self.digits) if pe else "not run: " + (self.peer_missing or "no figure")
        if hs and pe and pe.median != 0:
            ratio = f"{hs.median / pe.median:.2f}"
            # the two ranges apart: every round of one side above every round of the other
            if min(hs.count, pe.count) < 2:
                beyond = "- (one round: no spread)"
            else:
                beyond = "no (ranges overlap)" if hs.overlaps(pe) else "yes"
        else:
            ratio, beyond = "-", "-"
        return [self.figure, self.unit, hs_cell, pe_cell, self.peer, ratio, beyond] + ([self.verdict] if self.verdict is not None else [])


HEADER = ["figure", "unit", "hostside median (min-max)", "peer median (min-max)", "peer", "ratio", "difference beyond spread"]


def markdown(rows):
    """The table; a "verdict" column where the scenario judged its rows (every row then has one)."""
    judged = any(row.verdict is not None for row in rows)
    header = HEADER + (["verdict"] if judged else [])
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = row.cells() + (["-"] if judged and row.verdict is None else [])
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |")
    return "\n".join(lines)
