"""The node supervisor behind `nonstop run`: launcher, watchdog, policy, health checks."""
