from nonstop import taxonomy

LLAMA3_TABLE5 = {
    "faulty_gpu": 148,
    "gpu_hbm3_memory": 72,
    "software_bug": 54,
    "network_switch_cable": 35,
    "host_maintenance": 32,
    "gpu_sram_memory": 19,
    "gpu_system_processor": 17,
    "nic": 7,
    "nccl_watchdog_timeout": 7,
    "silent_data_corruption": 6,
    "gpu_thermal_interface_sensor": 6,
    "ssd": 3,
    "power_supply": 3,
    "server_chassis": 2,
    "io_expansion_board": 2,
    "dependency": 2,
    "cpu": 2,
    "system_memory": 2,
}
JOB_LEVEL = {
    "out_of_memory",
    "storage",
    "user_code_error",
    "hang",
    "numerical_nan",
    "loss_spike",
    "unknown",
}


def test_every_published_category_with_its_count():
    assert taxonomy.published() == LLAMA3_TABLE5
    assert sum(taxonomy.published().values()) == taxonomy.SNAPSHOT_UNEXPECTED == 419


def test_job_level_categories_and_ids_are_stable_snake_case():
    assert set(taxonomy.IDS) == set(LLAMA3_TABLE5) | JOB_LEVEL | {"planned_stop"}
    for c in taxonomy.CATEGORIES:
        assert c.id.isidentifier() and c.id == c.id.lower()
        assert c.action in taxonomy.ACTIONS
        assert c.name and c.group and c.description


def test_gpu_group_share_matches_the_paper():
    gpu = sum(c.count or 0 for c in taxonomy.CATEGORIES if c.group == taxonomy.GPU)
    assert gpu == 268  # 64.0% by counts; the paper prints 58.7% (see facts.md)
    assert round(gpu / 419, 3) == 0.640


def test_a_planned_stop_is_no_failure_and_excludes_no_node():
    c = taxonomy.get("planned_stop")
    assert c.group == taxonomy.PLANNED and c.count is None and not c.hardware
    assert c.action == "restart"


def test_lookup_and_unknown():
    assert taxonomy.get("faulty_gpu").action == "exclude_node"
    assert taxonomy.action_for("user_code_error") == "stop_and_page"
    assert taxonomy.action_for("no_such_thing") == "restart"
    try:
        taxonomy.get("no_such_thing")
    except KeyError as e:
        assert "faulty_gpu" in str(e)
    else:
        raise AssertionError("expected KeyError")
    assert abs(sum(taxonomy.published_mix().values()) - 1) < 1e-12


def test_docs_name_the_evidence_and_tools_of_every_category():
    """docs/diagnose.md's "Evidence per category" table has a row per taxonomy category."""
    from pathlib import Path

    from nonstop import taxonomy

    text = (Path(__file__).resolve().parents[1] / "docs" / "diagnose.md").read_text()
    section = text.split("## Evidence per category", 1)[1].split("\n## ", 1)[0]
    rows = {
        line.split("|")[1].strip().strip("`")
        for line in section.splitlines()
        if line.startswith("| `")
    }
    assert rows == set(taxonomy.IDS)
