#!/usr/bin/env python3
"""`nvidia-smi -q` beside hostside's NVML health read, field by field.

    python3 bench/harness/smi_q.py NVIDIA_SMI_Q.txt HOSTSIDE.json

NVIDIA_SMI_Q.txt is `nvidia-smi -q` as it prints; HOSTSIDE.json is an NvmlHealth document, or a
document that carries one under "facts"/"nvml" (as `hostside health --json` does) or "nvml". GPUs
are paired by PCI bus id. One aligned row per field: field, nvidia-smi's value, hostside's, and
equal / differs / n-a (n-a: one side has no value, so there is nothing to compare; both without one
is equal). Exit status 1 when any field differs, 0 otherwise, 2 on unreadable input.

Tolerances, because the two read at different moments: a temperature (current GPU and memory, and
the T.Limit margin that follows it) is equal within +-2 C, a power draw (average, instantaneous)
within +-10 % of nvidia-smi's; every other field must match exactly (the throttle counters as
nvidia-smi's us against hostside's ns // 1000). The mapping is health.md's "nvidia-smi -q field ->
NVML" table; the recovery-action words other than "None" are unverified there.

Python 3's standard library only (the GPU machine has nothing more).
"""
import json
import re
import sys

TEMP_TOLERANCE_C = 2
POWER_TOLERANCE = 0.10

# nvmlClocksEventReason* bits in nvidia-smi's words (hostside.gpu.nvml.ClockEvents)
CLOCK_REASONS = [(0x1, "Idle"), (0x2, "Applications Clocks Setting"), (0x4, "SW Power Cap"), (0x8, "HW Slowdown"),
                 (0x40, "HW Thermal Slowdown"), (0x80, "HW Power Brake Slowdown"), (0x10, "Sync Boost"),
                 (0x20, "SW Thermal Slowdown"), (0x100, "Display Clock Setting")]


def parse(text):
    """`nvidia-smi -q` text to {bus id: {"a/b/c": value}}: each GPU's lines by their path of
    section names (a key with a value may head deeper lines too, as HW Slowdown does)."""
    gpus, current, stack = {}, None, []
    for line in text.splitlines():
        if not line.strip():
            continue
        m = re.match(r"^GPU ([0-9A-Fa-f]+:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7])\s*$", line)
        if m:
            current, stack = {}, []
            gpus[bus_id(m.group(1))] = current
            continue
        if current is None:
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 4
        key, sep, value = line.strip().partition(":")
        key = key.strip()
        del stack[max(depth - 1, 0):]
        path = "/".join(stack + [key])
        if sep:
            current[path] = value.strip()
        stack.append(key)
    return gpus


def bus_id(text):
    """NVML's "00000000:00:06.0" in the kernel's spelling "0000:00:06.0", as hostside writes it."""
    domain, bus, rest = text.split(":")
    return "%04x:%s:%s" % (int(domain, 16), bus.lower(), rest.lower())


def number(text):
    """The number at the start of "71.79 W", "32 C", "16x", "2560 bank(s)", "0 us"; None for N/A."""
    m = re.match(r"^\s*(-?\d+(?:\.\d+)?)", text or "")
    return None if m is None else float(m.group(1))


def flag(text):
    words = {"yes": True, "no": False, "enabled": True, "disabled": False, "active": True, "not active": False}
    return words.get((text or "").strip().lower())


def get(doc, path):
    for part in path.split("."):
        if doc is None:
            return None
        doc = doc.get(part)
    return doc


SMI_COMPUTE = {"default": "default", "exclusive_thread": "exclusive thread", "prohibited": "prohibited",
               "exclusive_process": "exclusive process"}
SMI_RECOVERY = {"none": "none", "reset": "gpu reset", "gpu reset": "gpu reset", "reboot": "node reboot",
                "node reboot": "node reboot", "drain p2p": "drain p2p", "drain and reset": "drain and reset"}


def exact(a, b):
    return a == b


def within_c(a, b):
    return abs(a - b) <= TEMP_TOLERANCE_C


def within_pct(a, b):
    return abs(a - b) <= POWER_TOLERANCE * abs(a)


# field, nvidia-smi path, how to read it, hostside path, how to read that, how to compare, note
def fields():
    rows = []

    def add(name, smi, smi_read, hs, hs_read, same=exact, note=""):
        rows.append((name, smi, smi_read, hs, hs_read, same, note))

    ident = lambda v: v
    integer = lambda v: None if number(v) is None else int(number(v))
    add("ECC mode", "ECC Mode/Current", flag, "memory.eccEnabled", ident)
    add("ECC mode pending", "ECC Mode/Pending", flag, "memory.eccPendingEnabled", ident)
    for smi_kind, hs_kind in (("Volatile", "volatileErrors"), ("Aggregate", "aggregateErrors")):
        for smi_name, hs_name in (("DRAM Correctable", "dramCorrected"), ("DRAM Uncorrectable", "dramUncorrected"),
                                  ("SRAM Correctable", "sramCorrected"), ("SRAM Uncorrectable Parity", "sramUncorrectedParity"),
                                  ("SRAM Uncorrectable SEC-DED", "sramUncorrectedSecDed")):
            add("ECC %s %s" % (smi_kind.lower(), smi_name), "ECC Errors/%s/%s" % (smi_kind, smi_name), integer,
                "memory.%s.%s" % (hs_kind, hs_name), ident)
    add("SRAM threshold exceeded", "ECC Errors/Aggregate/SRAM Threshold Exceeded", flag, "memory.sramThresholdExceeded", ident)
    for smi_name, hs_name in (("SRAM L2", "l2"), ("SRAM SM", "sm"), ("SRAM Microcontroller", "microcontroller"),
                              ("SRAM PCIE", "pcie"), ("SRAM Other", "other")):
        add("SRAM source " + smi_name[5:], "ECC Errors/Aggregate Uncorrectable SRAM Sources/" + smi_name, integer,
            "memory.aggregateUncorrectedSram." + hs_name, ident)
    add("channel repair pending", "ECC Errors/Channel Repair Pending", flag, "memory.channelRepairPending", ident)
    add("TPC repair pending", "ECC Errors/TPC Repair Pending", flag, "memory.tpcRepairPending", ident)
    add("unrepairable memory", "ECC Errors/Unrepairable Memory", flag, "memory.unrepairable", ident)
    add("retired pages single bit", "Retired Pages/Single Bit ECC", integer, "memory.retiredPages.singleBit", ident)
    add("retired pages double bit", "Retired Pages/Double Bit ECC", integer, "memory.retiredPages.doubleBit", ident)
    add("retired pages pending", "Retired Pages/Pending Page Blacklist", flag, "memory.retiredPages.pending", ident)
    for smi_name, hs_name in (("Correctable Error", "correctable"), ("Inactive Correctable Error", "correctableInactive"),
                              ("Uncorrectable Error", "uncorrectable"), ("Inactive Uncorrectable Error", "uncorrectableInactive")):
        add("remapped rows " + smi_name.lower(), "Remapped Rows/" + smi_name, integer, "memory.remappedRows." + hs_name, ident)
    add("remapped rows pending", "Remapped Rows/Pending", flag, "memory.remappedRows.pending", ident)
    add("remapping failure", "Remapped Rows/Remapping Failure Occurred", flag, "memory.remappedRows.failureOccurred", ident)
    for bucket in ("Max", "High", "Partial", "Low", "None"):
        add("remap histogram " + bucket.lower(), "Remapped Rows/Bank Remap Availability Histogram/" + bucket, integer,
            "memory.remapHistogram." + bucket.lower(), ident)
    for smi_name, hs_name in (("SW Power Capping", "swPowerCapNs"), ("Sync Boost", "syncBoostNs"),
                              ("SW Thermal Slowdown", "swThermalNs"), ("HW Thermal Slowdown", "hwThermalNs"),
                              ("HW Power Braking", "hwPowerBrakeNs")):
        add("throttle " + smi_name + " (us)", "Clocks Event Reasons Counters/" + smi_name, integer,
            "state.throttleTime." + hs_name, lambda ns: None if ns is None else ns // 1000, note="hostside ns // 1000")
    add("GPU temperature (C)", "Temperature/GPU Current Temp", integer, "state.gpuTempC", ident, within_c, "+-2 C")
    add("memory temperature (C)", "Temperature/Memory Current Temp", integer, "state.memoryTempC", ident, within_c, "+-2 C")
    add("GPU T.Limit (C)", "Temperature/GPU T.Limit Temp", integer, "state.marginTempC", ident, within_c, "+-2 C")
    add("shutdown T.Limit (C)", "Temperature/GPU Shutdown T.Limit Temp", integer, "state.shutdownTLimitC", ident)
    add("slowdown T.Limit (C)", "Temperature/GPU Slowdown T.Limit Temp", integer, "state.slowdownTLimitC", ident)
    watts = lambda v: None if number(v) is None else number(v)
    mw_to_w = lambda mw: None if mw is None else mw / 1000.0
    add("power average (W)", "GPU Power Readings/Average Power Draw", watts, "state.powerAverageMw", mw_to_w, within_pct, "+-10 %")
    add("power instant (W)", "GPU Power Readings/Instantaneous Power Draw", watts, "state.powerInstantMw", mw_to_w, within_pct,
        "+-10 %")
    add("power limit (W)", "GPU Power Readings/Current Power Limit", watts, "state.powerLimitMw", mw_to_w)
    add("default power limit (W)", "GPU Power Readings/Default Power Limit", watts, "state.defaultPowerLimitMw", mw_to_w)
    add("PCIe gen", "PCI/GPU Link Info/PCIe Generation/Current", integer, "pcie.gen", ident)
    add("PCIe max gen", "PCI/GPU Link Info/PCIe Generation/Max", integer, "pcie.maxGen", ident)
    add("PCIe device max gen", "PCI/GPU Link Info/PCIe Generation/Device Max", integer, "pcie.gpuMaxGen", ident)
    add("PCIe width", "PCI/GPU Link Info/Link Width/Current", integer, "pcie.width", ident)
    add("PCIe max width", "PCI/GPU Link Info/Link Width/Max", integer, "pcie.maxWidth", ident)
    add("PCIe replays", "PCI/Replays Since Reset", integer, "pcie.replays", ident)
    add("PCIe replay rollovers", "PCI/Replay Number Rollovers", integer, "pcie.replayRollovers", ident)
    add("persistence mode", "Persistence Mode", flag, "state.persistenceMode", ident)
    add("compute mode", "Compute Mode", lambda v: SMI_COMPUTE.get((v or "").lower()), "state.computeMode", ident)
    add("MIG mode", "MIG Mode/Current", flag, "state.migEnabled", ident)
    add("MIG mode pending", "MIG Mode/Pending", flag, "state.migPendingEnabled", ident)
    add("recovery action", "GPU Recovery Action", lambda v: SMI_RECOVERY.get((v or "").lower()), "state.recoveryAction", ident)
    return rows


def smi_reasons(gpu):
    """The clock event reasons nvidia-smi calls Active, in its order."""
    active = []
    for _, words in CLOCK_REASONS:
        for path, value in gpu.items():
            if path.startswith("Clocks Event Reasons/") and path.rsplit("/", 1)[-1] == words and flag(value):
                active.append(words)
    return active


def hostside_reasons(bits):
    return None if bits is None else [words for bit, words in CLOCK_REASONS if bits & bit]


def compare(smi_gpus, nvml):
    """[(gpu, field, nvidia-smi, hostside, verdict)] for every GPU in either, paired by bus id."""
    hs_gpus = {g.get("pciBusId"): g for g in nvml.get("gpus", [])}
    out = []
    for bus in sorted(set(smi_gpus) | set(hs_gpus), key=str):
        smi, hs = smi_gpus.get(bus), hs_gpus.get(bus)
        if smi is None or hs is None:
            out.append((bus, "GPU", "present" if smi else "absent", "present" if hs else "absent", "differs"))
            continue
        for name, smi_path, smi_read, hs_path, hs_read, same, note in fields():
            a, b = smi_read(smi.get(smi_path)), hs_read(get(hs, hs_path))
            out.append((bus, name, show(a), show(b), verdict(a, b, same, note)))
        reasons = hostside_reasons(get(hs, "state.clockEventReasons"))
        a = smi_reasons(smi) if any(p.startswith("Clocks Event Reasons/") for p in smi) else None
        out.append((bus, "clock event reasons", show(a), show(reasons), verdict(a, reasons, exact, "")))
    return out


def verdict(a, b, same, note):
    if a is None and b is None:
        return "equal (neither gives it)"
    if a is None or b is None:
        return "n-a"
    ok = same(a, b)
    return ("equal" if ok else "differs") + (" (%s)" % note if note else "")


def show(v):
    if v is None:
        return "-"
    if isinstance(v, list):
        return ", ".join(v) if v else "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return "%.2f" % v
    return str(v)


def table(rows):
    head = ("GPU", "field", "nvidia-smi", "hostside", "verdict")
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head] + rows)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            smi = parse(f.read())
        with open(argv[2], encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("cannot read: %s" % e, file=sys.stderr)
        return 2
    # hostside health --json keeps it under facts.nvml; an NvmlHealth document is one itself
    nvml = doc.get("facts", {}).get("nvml") or doc.get("nvml", doc)
    rows = compare(smi, nvml)
    print(table(rows))
    return 1 if any(r[4].startswith("differs") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
