"""What every Python child of hostside does to die with it: the kernel's parent-death signal, and a
check that the parent is still the one that started us. Extracted beside each script that imports
it (hostside.cpu.dataloader.Python.Script)."""
import os
import signal


def set_pdeathsig():
    """Ask the kernel to SIGKILL this process when its parent dies (Linux only; elsewhere ppid polling does it)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass


def die_with_hostside():
    """Killed with the process that started us: the parent-death signal (hostside's setpriv may
    have set it already; where setpriv is missing this is the only one), then a check that the
    parent is still the one named in HOSTSIDE_PARENT_PID: had it died before prctl ran, we would
    have been adopted already and the signal would never come."""
    set_pdeathsig()
    expected = os.environ.get("HOSTSIDE_PARENT_PID", "")
    if expected.isdigit() and os.getppid() != int(expected):
        os._exit(1)
