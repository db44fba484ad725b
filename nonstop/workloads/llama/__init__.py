"""The demo workload: a tiny Llama-3-architecture decoder and its resumable byte-level data."""
