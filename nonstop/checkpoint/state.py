"""What a checkpoint holds, as one flat dict of tensors for torch.distributed.checkpoint.

The user's `state` maps names to objects:

- one `nn.Module` (plain, DDP or FSDP2): saved through DCP's `get_model_state_dict`, sharded
  and reshardable;
- any `torch.optim.Optimizer`s of that module: `get_optimizer_state_dict`, reshardable;
- anything else with `state_dict()` / `load_state_dict()` (LR scheduler, data loader, user
  extras; DCP's `Stateful`) or a plain dict: saved **per rank** under `rank<R>/<name>/`;
- the RNG states of Python, NumPy, torch CPU and CUDA, per rank, under `rank<R>/_rng/`.

Every non-tensor leaf (ints, floats, strings, tuples, the optimizer's param_groups) goes into a
JSON "skeleton" stored as a uint8 tensor next to the section's tensors, so DCP never pickles
user objects and loading never unpickles any.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributed.checkpoint.metadata import Metadata, TensorStorageMetadata
from torch.distributed.checkpoint.state_dict import (
    get_model_state_dict,
    get_optimizer_state_dict,
    get_state_dict,
    set_model_state_dict,
    set_optimizer_state_dict,
)

from nonstop.errors import UserError

JSON = "__json__"
RNG = "_rng"
_PLAIN = (int, str, bool, type(None))


@dataclass(frozen=True)
class Entries:
    """The user's state, sorted by how it is saved."""

    model: tuple[str, nn.Module] | None
    optimizers: dict[str, torch.optim.Optimizer]
    per_rank: dict[str, Any]


@dataclass
class Restored:
    """What loading put back, and what it could not."""

    loaded: list[str] = field(default_factory=list)
    not_resharded: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def classify(state: Mapping[str, Any]) -> Entries:
    """Sort the user's entries; UserError for what cannot be checkpointed safely."""
    if not isinstance(state, Mapping):
        raise UserError(f"checkpoint state must be a dict of name -> object, got {type(state)}")
    model: tuple[str, nn.Module] | None = None
    optimizers: dict[str, torch.optim.Optimizer] = {}
    per_rank: dict[str, Any] = {}
    for name, obj in state.items():
        if not isinstance(name, str) or not name or "/" in name or name.startswith(("_", "rank")):
            raise UserError(
                f"checkpoint state key {name!r} is not allowed: use a non-empty name without "
                "'/' that does not start with '_' or 'rank'"
            )
        if isinstance(obj, nn.Module):
            if model is not None:
                raise UserError(
                    f"checkpoint state has two modules ({model[0]!r} and {name!r}); "
                    "put them in one nn.ModuleDict so their optimizers can be matched"
                )
            model = (name, obj)
        elif isinstance(obj, torch.optim.Optimizer):
            optimizers[name] = obj
        elif (
            callable(getattr(obj, "state_dict", None))
            and callable(getattr(obj, "load_state_dict", None))
        ) or isinstance(obj, dict):
            per_rank[name] = obj
        else:
            raise UserError(
                f"checkpoint state {name!r} is a {type(obj).__name__}: pass an nn.Module, an "
                "optimizer, an object with state_dict()/load_state_dict(), or a dict"
            )
    if optimizers and model is None:
        raise UserError("checkpoint state has an optimizer but no nn.Module to match it with")
    return Entries(model=model, optimizers=optimizers, per_rank=per_rank)


def collect(
    entries: Entries, *, step: int, rank: int, world_size: int, plan: Plan | None = None
) -> dict[str, Any]:
    """The flat {key: tensor or DTensor} that DCP saves, live tensors not yet copied. With a
    `plan` (one per Checkpointer), the usual state (a module and one optimizer) is read as DCP
    last answered for it while that answer still holds."""
    out: dict[str, Any] = {}
    if entries.model is not None:
        name, model = entries.model
        if len(entries.optimizers) == 1:  # the usual state: one call checks the model once
            [(oname, opt)] = entries.optimizers.items()
            if plan is not None:
                out.update(plan.flat(name, model, oname, opt))
            else:
                model_sd, opt_sd = get_state_dict(model, opt)
                _add(out, name, model_sd)
                _add(out, oname, opt_sd)
        else:
            _add(out, name, get_model_state_dict(model))
            for oname, opt in entries.optimizers.items():
                _add(out, oname, get_optimizer_state_dict(model, opt))
    for name, obj in entries.per_rank.items():
        sd = obj.state_dict() if not isinstance(obj, dict) else obj
        _add(out, f"rank{rank}/{name}", sd)
    _add(out, f"rank{rank}/{RNG}", rng_state())
    _add(out, "_meta", {"step": step, "world_size": world_size})
    return out


class Plan:
    """DCP's state dict of a module and its optimizer, learned once and read again step after
    step (docs/checkpoint.md, "In-memory snapshots").

    `get_state_dict` costs ~6 ms for the demo's 163 tensors on CPU at every call (it derives
    every parameter's name and checks its options anew) and encoding its answer 0.6 ms, while
    the module's and optimizer's own `state_dict()` cost 0.2 ms. What DCP answers for a plain
    module (or DDP's) is the module's own tensors under their names and the optimizer's state
    keyed by those names. The plan keeps that answer, encoded, and each optimizer index's name,
    and reads it again while every parameter, buffer and optimizer state tensor is the same
    object at the same address (checked at each call): only the optimizer's parameter groups
    (the learning rate changes every step) and any state value that is not a tensor are encoded
    anew. Where the plan does not reproduce DCP's own answer exactly (DTensor shards, state dict
    hooks, extra state), DCP is asked at every call, as without a plan."""

    def __init__(self) -> None:
        self._key: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._held: list[torch.Tensor] = []  # keeps the key's ids from being reused
        self._fixed: dict[str, Any] = {}  # the tensors of both sections, the module's skeleton
        self._names: dict[int, str] = {}  # optimizer index -> DCP's name
        self._state_json = ""  # the optimizer's state skeleton when it holds tensors only
        self.misses = 0
        """Calls that asked DCP (the first, and each after the tensors changed)."""
        self.usable = True
        """False once the plan did not reproduce DCP's answer: DCP is asked from then on."""

    def flat(self, name: str, model: nn.Module, oname: str, opt: torch.optim.Optimizer) -> dict:
        """`collect`'s entries for the module `name` and its optimizer `oname`."""
        held = _tensors_of(model, opt)
        key = (tuple(map(id, held)), tuple(t.data_ptr() for t in held))
        if self.usable and key == self._key:
            out = dict(self._fixed)
            self._add_optimizer(out, oname, opt.state_dict())
            return out
        self.misses += 1
        model_sd, opt_sd = get_state_dict(model, opt)
        out = {}
        _add(out, name, model_sd)
        _add(out, oname, opt_sd)
        if self.usable:
            self._learn(model, model_sd, oname, opt, out)
            if self.usable:
                self._key, self._held = key, held
        return out

    def _learn(
        self, model: nn.Module, model_sd: dict, oname: str, opt: torch.optim.Optimizer, dcp: dict
    ) -> None:
        self._key, self._held = None, []
        own = opt.state_dict()
        live = {t.data_ptr() for t in _tensors_of(model, opt)}
        if not all(type(t) is torch.Tensor and t.data_ptr() in live for t in model_sd.values()):
            self.usable = False  # DTensors, copies or extra state: not the live tensors
            return
        names: dict[int, str] = {}
        dcp_groups = dcp_skeleton(dcp, oname).get("param_groups", [])
        for g_own, g_dcp in zip(own["param_groups"], dcp_groups, strict=False):
            names.update(zip(g_own["params"], g_dcp.get("params", []), strict=False))
        self._names = names
        state_skel, state_tensors = flatten(f"{oname}/state", self._state(own))
        only_tensors = (
            all(
                isinstance(v, dict) and set(v) == {"__tensor__"}
                for per_param in state_skel.values()
                for v in per_param.values()
            )
            if isinstance(state_skel, dict)
            else False
        )
        self._state_json = (
            json.dumps(state_skel, separators=(",", ":"), allow_nan=False) if only_tensors else ""
        )
        fixed = {k: v for k, v in dcp.items() if not k.startswith(f"{oname}/")}
        if only_tensors:
            fixed.update((k, v) for k, v in state_tensors.items() if not k.endswith(JSON))
        self._fixed = fixed
        try:
            mine = dict(fixed)
            self._add_optimizer(mine, oname, own)
        except KeyError:
            self.usable = False
            return
        self.usable = _same(mine, dcp)

    def _state(self, own: dict[str, Any]) -> dict[str, Any]:
        names = self._names
        return {names[i]: v for i, v in own["state"].items()}

    def _add_optimizer(self, out: dict[str, Any], oname: str, own: dict[str, Any]) -> None:
        """The optimizer's section from its own state dict (indices -> names), its tensors
        already in `out` when the state skeleton is kept."""
        names = self._names
        groups = [{**g, "params": [names[i] for i in g["params"]]} for g in own["param_groups"]]
        groups_skel, tensors = flatten(f"{oname}/param_groups", groups)
        if self._state_json:
            state_json = self._state_json
        else:
            state_skel, state_tensors = flatten(f"{oname}/state", self._state(own))
            tensors.update(state_tensors)
            state_json = json.dumps(state_skel, separators=(",", ":"), allow_nan=False)
        del tensors[f"{oname}/param_groups/{JSON}"]
        tensors.pop(f"{oname}/state/{JSON}", None)
        out.update(tensors)
        groups_json = json.dumps(groups_skel, separators=(",", ":"), allow_nan=False)
        data = f'{{"state":{state_json},"param_groups":{groups_json}}}'.encode()
        out[f"{oname}/{JSON}"] = torch.frombuffer(bytearray(data), dtype=torch.uint8)


def dcp_skeleton(flat: Mapping[str, Any], prefix: str) -> Any:
    """The skeleton of section `prefix` of a flat dict (decoded JSON)."""
    return from_tensor(flat[f"{prefix}/{JSON}"])


def _tensors_of_optimizer(opt: torch.optim.Optimizer) -> list[torch.Tensor]:
    return [
        v
        for per_param in opt.state.values()
        for v in per_param.values()
        if isinstance(v, torch.Tensor)
    ]


def _tensors_of(model: nn.Module, opt: torch.optim.Optimizer) -> list[torch.Tensor]:
    out: list[torch.Tensor] = []
    for m in model.modules():
        out.extend(t for t in m._parameters.values() if t is not None)
        out.extend(t for t in m._buffers.values() if t is not None)
    out.extend(_tensors_of_optimizer(opt))
    return out


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two flat dicts with the same keys, the same skeletons (byte for byte) and the same
    tensors (the same memory)."""
    if a.keys() != b.keys():
        return False
    for k, x in a.items():
        y = b[k]
        if type(x) is not torch.Tensor or type(y) is not torch.Tensor:
            return False
        if k.endswith(JSON):
            if not torch.equal(x, y):
                return False
        elif (x.data_ptr(), x.shape, x.dtype, x.stride()) != (
            y.data_ptr(),
            y.shape,
            y.dtype,
            y.stride(),
        ):
            return False
    return True


def targets(
    entries: Entries, md: Metadata, *, rank: int, saved_world: int, world_size: int
) -> tuple[dict[str, Any], dict[str, str], Restored]:
    """Tensors for DCP to load into: live ones (model, optimizer: DCP reshards them) and fresh
    ones sized from the checkpoint's metadata (per-rank state, RNG, JSON skeletons)."""
    flat: dict[str, Any] = {}
    skels: dict[str, str] = {}  # entry -> key prefix of its section in the checkpoint
    info = Restored()
    saved = md.state_dict_metadata
    same_world = saved_world == world_size
    src = rank if same_world else 0

    def fresh(prefix: str) -> bool:
        keys = [k for k in saved if k.startswith(prefix + "/")]
        for k in keys:
            m = saved[k]
            if not isinstance(m, TensorStorageMetadata):
                raise UserError(f"checkpoint item {k} is not a tensor; not a nonstop checkpoint")
            flat[k] = torch.empty(m.size, dtype=m.properties.dtype)
        return bool(keys)

    if entries.model is not None:
        name, model = entries.model
        live: dict[str, Any] = {name: get_model_state_dict(model)}
        for oname, opt in entries.optimizers.items():
            live[oname] = get_optimizer_state_dict(model, opt)
        for sec, sd in live.items():
            if f"{sec}/{JSON}" not in saved:
                info.missing.append(sec)
                continue
            flat.update(flatten(sec, sd)[1])
            skels[sec] = sec
            fresh_json(flat, saved, sec)
    for name in entries.per_rank:
        if fresh(f"rank{src}/{name}"):
            skels[name] = f"rank{src}/{name}"
            if not same_world:
                info.not_resharded.append(name)
        else:
            info.missing.append(name)
    if same_world and fresh(f"rank{src}/{RNG}"):
        skels[RNG] = f"rank{src}/{RNG}"
    elif not same_world:
        info.not_resharded.append("rng")
    return flat, skels, info


def apply(entries: Entries, flat: dict[str, Any], skels: dict[str, str], info: Restored) -> None:
    """Put what DCP loaded into `flat` back into the user's objects."""
    if entries.model is not None:
        name, model = entries.model
        if name in skels:
            set_model_state_dict(model, _rebuild(flat, skels[name]))
            info.loaded.append(name)
        for oname, opt in entries.optimizers.items():
            if oname in skels:
                set_optimizer_state_dict(model, opt, _rebuild(flat, skels[oname]))
                info.loaded.append(oname)
    for name, obj in entries.per_rank.items():
        if name not in skels:
            continue
        sd = _rebuild(flat, skels[name])
        if isinstance(obj, dict):
            obj.clear()
            obj.update(sd)
        else:
            obj.load_state_dict(sd)
        info.loaded.append(name)
    if RNG in skels:
        set_rng_state(_rebuild(flat, skels[RNG]))
        info.loaded.append("rng")


def fresh_json(flat: dict[str, Any], saved: Mapping[str, Any], prefix: str) -> None:
    m = saved[f"{prefix}/{JSON}"]
    flat[f"{prefix}/{JSON}"] = torch.empty(m.size, dtype=torch.uint8)


# -- RNG ----------------------------------------------------------------------------------------


def rng_state() -> dict[str, Any]:
    """This process's RNG states: Python, NumPy's global generator, torch CPU and CUDA."""
    out: dict[str, Any] = {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        out["cuda"] = torch.cuda.get_rng_state_all()
    return out


def set_rng_state(state: Mapping[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


# -- the tensor + JSON codec --------------------------------------------------------------------


def flatten(prefix: str, obj: Any) -> tuple[Any, dict[str, Any]]:
    """(JSON-able skeleton, {key: tensor}) with tensors replaced by {"__tensor__": key}."""
    tensors: dict[str, Any] = {}

    def enc(o: Any, path: str) -> Any:
        if isinstance(o, torch.Tensor):
            tensors[path] = o
            return {"__tensor__": path}
        if isinstance(o, np.ndarray):
            arr = o.astype(np.int64) if o.dtype.kind == "u" else o
            tensors[path] = torch.from_numpy(np.ascontiguousarray(arr)).clone()
            return {"__ndarray__": path, "dtype": o.dtype.str}
        if isinstance(o, np.generic):
            return enc(o.item(), path)
        if o is None or isinstance(o, bool | int | str):
            return o
        if isinstance(o, float):
            return o if math.isfinite(o) else {"__float__": repr(o)}
        if isinstance(o, list | tuple):
            # Python's RNG state is a tuple of 625 ints: a list of plain scalars encodes as
            # itself, without a call per element
            items = list(o) if all(type(v) in _PLAIN for v in o) else None
            if items is None:
                items = [enc(v, f"{path}/{i}") for i, v in enumerate(o)]
            return items if isinstance(o, list) else {"__tuple__": items}
        if isinstance(o, dict):
            if all(isinstance(k, str) and not k.startswith("__") for k in o):
                return {k: enc(v, f"{path}/{_esc(k)}") for k, v in o.items()}
            return {
                "__dict__": [[enc(k, path), enc(v, f"{path}/{_esc(str(k))}")] for k, v in o.items()]
            }
        raise UserError(
            f"cannot checkpoint a {type(o).__name__} at {path}: state may hold tensors, numbers, "
            "strings, None, lists, tuples, dicts and NumPy arrays (nothing is pickled)"
        )

    skeleton = enc(obj, prefix)
    tensors[f"{prefix}/{JSON}"] = to_tensor(skeleton)
    return skeleton, tensors


def unflatten(skeleton: Any, tensors: Mapping[str, Any]) -> Any:
    def dec(o: Any) -> Any:
        if isinstance(o, list):
            return [dec(v) for v in o]
        if not isinstance(o, dict):
            return o
        if "__tensor__" in o:
            return tensors[o["__tensor__"]]
        if "__ndarray__" in o:
            return tensors[o["__ndarray__"]].numpy().astype(np.dtype(o["dtype"]))
        if "__float__" in o:
            return float(o["__float__"])
        if "__tuple__" in o:
            return tuple(dec(v) for v in o["__tuple__"])
        if "__dict__" in o:
            return {_hashable(dec(k)): dec(v) for k, v in o["__dict__"]}
        return {k: dec(v) for k, v in o.items()}

    return dec(skeleton)


def to_tensor(obj: Any) -> torch.Tensor:
    data = json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()
    return torch.frombuffer(bytearray(data), dtype=torch.uint8)


def from_tensor(t: torch.Tensor) -> Any:
    return json.loads(bytes(t.numpy().tobytes()).decode())


def _rebuild(flat: Mapping[str, Any], prefix: str) -> Any:
    return unflatten(from_tensor(flat[f"{prefix}/{JSON}"]), flat)


def _add(out: dict[str, Any], prefix: str, obj: Any) -> None:
    out.update(flatten(prefix, obj)[1])


def _esc(key: str) -> str:
    return key.replace("%", "%25").replace("/", "%2F")


def _hashable(k: Any) -> Any:
    return tuple(_hashable(v) for v in k) if isinstance(k, list | tuple) else k
