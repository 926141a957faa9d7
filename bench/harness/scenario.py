"""A scenario: what it compares, its options, and the rounds that give its rows."""
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from harness import tools


class Scenario:
    name = ""
    prints = ""      # what its table holds, for --list
    order = "peer, hostside"

    def add_options(self, parser):
        pass

    def rows(self, bench):
        raise NotImplementedError


@dataclass
class Bench:
    """What a scenario runs with: the rounds, its folder for every output, hostside, the peers."""
    out: Path
    rounds: int
    options: object
    hostside: tools.Hostside
    peers: tools.Peers
    probes: tools.Probes
    notes: list = field(default_factory=list)   # lines printed under the table

    def hs(self, name, *args, env=None, timeout=None):
        return tools.run(self.hostside(*args), self.out, name, env, timeout)

    def peer(self, argv, name, env=None, timeout=None):
        return tools.run_peer(self.peers, argv, self.out, name, env, timeout)

    @staticmethod
    def say(message):
        print(message, file=sys.stderr, flush=True)


def figures(result):
    """hostside's --json figures by key (the flat list every drill's JSON carries), {} if none."""
    if not result.ok:
        return {}
    try:
        return {f["key"]: f for f in json.loads(result.text()).get("figures", [])}
    except ValueError:
        return {}


def document(result):
    try:
        return json.loads(result.text()) if result.ok else None
    except ValueError:
        return None
