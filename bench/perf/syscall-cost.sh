#!/usr/bin/env bash
# What one system call costs on this machine before it does any work: a million getppid(2) calls,
# timed. On a VM with page-table isolation (PTI) this is about a microsecond, which is why the gateway's
# workers hand their reads and writes to the kernel in one io_uring_enter(2) per turn (docs/PERFORMANCE.md,
# "System calls through io_uring").
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/syscall.c" <<'C'
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
    enum { Calls = 1000000 };
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < Calls; ++i)
        syscall(SYS_getppid);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f us per system call\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / Calls);
    return 0;
}
C
cc -O2 -o "$work/syscall" "$work/syscall.c"
for _ in 1 2 3; do "$work/syscall"; done
grep -H . /sys/devices/system/cpu/vulnerabilities/meltdown 2>/dev/null || true
