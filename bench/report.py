"""What every benchmark records about its run: the machine it ran on, and the JSON report."""

from __future__ import annotations

import json
import os
import platform
import sys
from typing import Any


def machine() -> dict[str, Any]:
    """Python, the platform, the CPUs (all, and usable by this process) and the load at the start."""
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": affinity,
        "loadavg_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def write_json(path: str, report: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(report, out, indent=2)
        out.write("\n")
    print(f"JSON written to {path}")
