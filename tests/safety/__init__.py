"""Adversarial input, faults, crashes, full disks, concurrency, odd paths, files, limits."""
