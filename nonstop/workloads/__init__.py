"""Workloads that ship with nonstop: the demo's tiny Llama and its resumable data."""
