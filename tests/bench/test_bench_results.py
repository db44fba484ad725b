"""benchmarks/run.py --save and `results`: full runs are kept with their date and load, and the
table README.md quotes is built from them (an unreadable file is named, not a traceback)."""

import json

from benchmarks import run


def test_saved_results_make_the_table(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "RESULTS", tmp_path)
    path = run.save(
        {
            "name": "demo",
            "ours": 1.5,
            "peer": 3.0,
            "peer_name": "torchrun",
            "ratio": 0.5,
            "unit": "s",
            "better": "lower",
            "reps": 5,
            "spread": {"ours": [1.0, 2.0], "peer": [2.5, 3.5], "ratio": [0.4, 0.6]},
        }
    )
    kept = json.loads(path.read_text())
    assert kept["date"].endswith("Z") and len(kept["load"]) == 3
    (tmp_path / "broken.json").write_text("{not json")
    kept_by_hand = {"name": "indented", "ours": 2.0, "peer": 4.0, "ratio": 0.5, "reps": 5}
    (tmp_path / "indented.json").write_text(json.dumps(kept_by_hand, indent=1))
    (tmp_path / "list.json").write_text("[1, 2]")
    table = run.results_table().splitlines()
    assert table[0].startswith("| benchmark | ours | peer | ratio (95% CI)")
    (broken,) = [r for r in table if r.startswith("| broken ")]
    assert "unreadable" in broken
    (demo,) = [r for r in table if r.startswith("| demo ")]
    assert "| 1.5 | 3 (torchrun) | 0.5 (0.4-0.6) | s | 5 |" in demo, demo
    (indented,) = [r for r in table if r.startswith("| indented ")]
    assert "| 2 | 4 () | 0.5 |" in indented, indented  # a whole indented object is read too
    (listed,) = [r for r in table if r.startswith("| list ")]
    assert "unreadable: not a JSON object" in listed


def test_results_verb_prints_the_table(capsys):
    assert run.main(["results"]) == 0
    assert capsys.readouterr().out.startswith("| benchmark |")
