#!/usr/bin/env python3
"""cyclictest's measuring loop in Python (ctypes clock_nanosleep to absolute ticks, lateness on
wake, ticks already passed skipped): the feeder of a real training loop is a Python thread, so
this is where a PyTorch job's own launch cadence lies beside hostside's JVM feeder and the C loop.
    python3 bench/timer_loop.py TICKS PERIOD_US"""
import ctypes
import ctypes.util
import sys
import time

CLOCK_MONOTONIC, TIMER_ABSTIME = 1, 1


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def main():
    n, period = int(sys.argv[1]), int(sys.argv[2]) * 1000
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    sleep = libc.clock_nanosleep
    sleep.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(Timespec), ctypes.c_void_p]
    now = time.monotonic_ns
    late, skipped, ts = [0] * n, 0, Timespec()
    deadline = now() + 1_000_000
    for i in range(n):
        ts.tv_sec, ts.tv_nsec = divmod(deadline, 1_000_000_000)
        sleep(CLOCK_MONOTONIC, TIMER_ABSTIME, ctypes.byref(ts), None)
        woke = now()
        late[i] = woke - deadline
        deadline += period
        while woke > deadline:
            deadline += period
            skipped += 1
    late.sort()
    us = lambda q: late[min(n - 1, int(n * q))] // 1000
    print(f"Python timer loop (ctypes)  p50 {us(0.5)}  p99 {us(0.99)}  p99.9 {us(0.999)}  max {late[-1] // 1000} us  ({n} samples, {skipped} ticks skipped)")


if __name__ == "__main__":
    main()
