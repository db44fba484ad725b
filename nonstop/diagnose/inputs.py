"""What a user hands `nonstop triage`, made into files its scan reads as text.

    nonstop triage /var/log/kern.log.2.gz   # rotated logs: gzip, xz and bzip2, read decompressed
    nonstop triage <(journalctl -k)         # a pipe: read once, like `-` (standard input)
    nonstop triage windows-event.log        # UTF-16 (Windows' "Unicode"): read as UTF-8
    nonstop triage /bin/ls                  # refused: a binary file, not a log (exit 2)

The scan reads bytes and looks for ASCII needles, so a compressed or UTF-16 log gave "no known
failure signature" without a word that nothing in it had been read. Here each input is
recognised by its first bytes, not its name: compressed (gzip, xz, bzip2; zstd is named and
refused, the standard library has no reader for it), UTF-16 (a byte-order mark, or NULs in
every other byte), binary (an executable, a SQLite database, a pickle, an image or archive, or
a head that is mostly control bytes once NULs are left out: a log a crash left with a run of
NULs is still a log), else text, read in place. Whatever is converted is written to a spool
folder and named in the output as the user named it (`Inputs.names`).

A binary file the user named is an error; one met in a folder is left out with a line on
standard error (a run directory holds a ledger and flight-recorder pickles beside its logs).
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import lzma
import os
import shutil
import stat
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from nonstop.errors import UserError

STDIN = "<stdin>"
HEAD_BYTES = 8 << 10  # what is read of each input to tell what it is (2,000 rank logs: +0.05 s)
COPY_BYTES = 1 << 20

_COMPRESSED: dict[bytes, tuple[str, Callable[..., Any]]] = {
    b"\x1f\x8b": ("gzip", gzip.open),
    b"\xfd7zXZ\x00": ("xz", lzma.open),
    b"BZh": ("bzip2", bz2.open),
}
# magics short enough to begin a line of text ("BZh...", "MZ..."): taken only with what follows
# them in such a file (bzip2: a block size digit and the block magic pi, "1AY&SY", or the end of
# stream; a Windows executable: a NUL in its 64-byte header), so a log whose first word starts
# so is still read as text
_CONFIRM: dict[bytes, Callable[[bytes], bool]] = {
    b"BZh": lambda h: h[3:4].isdigit() and h[4:10] in (b"1AY&SY", b"\x17rE8P\x90"),
    b"MZ": lambda h: b"\x00" in h[2:64],
}
_REFUSED_COMPRESSED = {
    b"\x28\xb5\x2f\xfd": ("zstd", "zstd -dc"),
    b"\x04\x22\x4d\x18": ("lz4", "lz4 -dc"),
}
_BINARY = {
    b"\x7fELF": "an ELF executable or library",
    b"SQLite format 3\x00": "a SQLite database",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"PK\x03\x04": "a zip archive",
    b"MZ": "a Windows executable",
}
# pickle protocol 2 to 5 (flight-recorder dumps): PROTO then a FRAME or a first opcode
_PICKLE = tuple(bytes([0x80, p]) for p in (2, 3, 4, 5))
# every byte but a control byte: text, whitespace, ESC (colours), UTF-8's high bytes; what
# `bytes.translate` deletes to count the control bytes at C speed
_NOT_CONTROL = bytes(range(0x20, 0x7F)) + bytes(range(0x80, 0x100)) + b"\t\n\r\f\v\b\x1b"
MAX_CONTROL_SHARE = 0.1  # a text has almost no control bytes but whitespace and ESC
# random, encrypted or unknown compressed bytes: about 9% control bytes, and nearly every high
# byte outside a UTF-8 sequence; a Latin-1 log has no control bytes, a coloured UTF-8 one no bad
# sequences (tests/diagnose/test_foreign_inputs.py)
RANDOM_CONTROL_SHARE = 0.02
RANDOM_BAD_UTF8_SHARE = 0.2
# what follows a UTF-16 byte-order mark must be this printable (or whitespace) to be read so
UTF16_PRINTABLE_SHARE = 0.9
# printable ASCII and line whitespace: a head of these alone can begin with no magic but
# bzip2's (the others hold a control, NUL or high byte), has no NUL and no control byte
_PLAIN = bytes(range(0x20, 0x7F)) + b"\t\n\r"


@dataclass
class Inputs:
    """The files triage reads, and what the user called those it reads through a spool."""

    files: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    """Spooled file -> the name the user gave (a compressed file's, `<stdin>`, a pipe's)."""


def kind(head: bytes) -> str:
    """What a file whose first bytes are `head` is: "gzip", "xz" or "bzip2"; "utf-16-le" or
    "utf-16-be" (without a byte-order mark, "utf-16" with one); "binary: WHAT"; or "text"."""
    if not head.translate(None, _PLAIN):  # the usual log: the answer of the checks below
        return "bzip2" if head.startswith(b"BZh") and _CONFIRM[b"BZh"](head) else "text"
    for magic, (name, _) in _COMPRESSED.items():
        if head.startswith(magic) and _CONFIRM.get(magic, bool)(head):
            return name
    for magic, (name, _) in _REFUSED_COMPRESSED.items():
        if head.startswith(magic):
            return name
    if (
        head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        and not head.startswith(codecs.BOM_UTF32_LE)
        and _reads_as_utf16(head)
    ):
        return "utf-16"
    for magic, what in _BINARY.items():
        if head.startswith(magic) and _CONFIRM.get(magic, bool)(head):
            return f"binary: {what}"
    if head.startswith(_PICKLE):
        return "binary: a Python pickle (a flight-recorder dump? nonstop diagnose --flight DIR)"
    even, odd = head[0::2], head[1::2]
    if len(head) >= 16:
        nul_even, nul_odd = even.count(0) / len(even), odd.count(0) / len(odd)
        if nul_odd > 0.3 and nul_even < 0.05:
            return "utf-16-le"  # ASCII text as UTF-16: every other byte a NUL
        if nul_even > 0.3 and nul_odd < 0.05:
            return "utf-16-be"
    rest = head.replace(b"\x00", b"")  # a run of NULs (a crash's hole in a log) is no verdict
    if len(rest) >= 256:
        controls = len(rest.translate(None, _NOT_CONTROL))
        if controls > MAX_CONTROL_SHARE * len(rest):
            return "binary: mostly control bytes"
        bad = rest.decode("utf-8", "replace").count("\ufffd")
        if controls > RANDOM_CONTROL_SHARE * len(rest) and bad > RANDOM_BAD_UTF8_SHARE * len(rest):
            return (
                "binary: neither text nor a known format (random, encrypted or compressed bytes?)"
            )
    return "text"


def _reads_as_utf16(head: bytes) -> bool:
    """Whether what follows a UTF-16 byte-order mark reads as UTF-16 text: nearly all of it
    printable or whitespace, and its lines broken where the bytes' are. An ASCII log behind
    a stray FF FE reads as CJK characters with no line break, a binary as unassigned ones."""
    body = head[2 : 2 + (len(head) - 2) // 2 * 2]
    text = body.decode("utf-16-le" if head[0] == 0xFF else "utf-16-be", "replace")
    if not text:
        return True  # the mark alone: an empty UTF-16 file
    good = sum((c.isprintable() and c != "\ufffd") or c in "\t\n\r\f\v\x1b" for c in text)
    if good < UTF16_PRINTABLE_SHARE * len(text):
        return False
    return "\n" in text or "\r" in text or b"\n" not in body


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(HEAD_BYTES)
    except OSError as e:
        raise UserError(f"{path}: cannot read log ({e.strerror or e})") from None


class _Damaged(Exception):
    """A compressed file of which nothing could be read (damaged from its start)."""


def _convert(path: str, what: str, out: Path, name: str, who: str) -> str:
    """`path` (of kind `what`, compressed or UTF-16) as a text file at `out`: its path;
    _Damaged when nothing of a compressed file could be read. `who`: the verb that says so."""
    opened: Any
    if what in _NAMES_COMPRESSED:
        opened = _NAMES_COMPRESSED[what](path, "rb")
        with opened as src, open(out, "wb") as dst:
            try:  # read1: what came before a cut is written before the cut raises
                while chunk := src.read1(COPY_BYTES):
                    dst.write(chunk)
            except (EOFError, OSError, lzma.LZMAError, zlib.error) as e:  # cut or damaged
                if dst.tell() == 0:
                    raise _Damaged(str(e)) from None
                print(
                    f"{who}: {name}: the {what} stream ends early or is damaged ({e}); "
                    f"read the {dst.tell():,} bytes before that",
                    file=sys.stderr,
                )
        return str(out)
    encoding = what  # utf-16 (with a byte-order mark), utf-16-le, utf-16-be
    with (
        open(path, encoding=encoding, errors="replace", newline="") as src,
        open(out, "w", encoding="utf-8", newline="") as dst,
    ):
        shutil.copyfileobj(src, dst, COPY_BYTES)
    return str(out)


_NAMES_COMPRESSED = {name: opener for name, opener in _COMPRESSED.values()}


def readable(
    path: str, name: str, spool: Path, got: Inputs, *, named: bool, who: str = "nonstop triage"
) -> None:
    """Add the regular file or spooled stream `path` (shown as `name`) to `got`, converted
    where it is not plain text; a binary file named by the user is an error, one found in a
    folder is left out with a line on standard error (beginning with `who`, the verb)."""

    def refuse(why: str) -> None:
        if named:
            raise UserError(why)
        print(f"{who}: left out {why}", file=sys.stderr)

    for _ in range(3):  # a compressed UTF-16 log, a gzip inside an xz: at most a few layers
        try:
            what = kind(_head(path))
        except UserError as e:  # unreadable: /var/log holds root's own files
            return refuse(str(e))
        if what == "text":
            break
        if what.startswith("binary"):
            return refuse(f"{name}: {what.split(': ', 1)[1]}, not a log")
        if what in ("zstd", "lz4"):
            tool = dict(_REFUSED_COMPRESSED.values())[what]
            return refuse(
                f"{name}: {what}-compressed, which nonstop cannot read; decompress it first: "
                f"{tool} {name} | nonstop triage -"
            )
        try:
            out = spool / f"{len(got.names) + len(got.files)}.log"
            path = _convert(path, what, out, name, who)
        except _Damaged as e:
            return refuse(f"{name}: a damaged {what} file, nothing in it could be read ({e})")
        got.names[path] = name
    got.files.append(path)
    if path != name:
        got.names[path] = name


def _spool_stream(src: IO[bytes] | Any, out: Path, name: str) -> None:
    try:
        with open(out, "wb") as dst:
            shutil.copyfileobj(getattr(src, "buffer", src), dst, COPY_BYTES)
    except (OSError, ValueError, AttributeError) as e:  # closed, captured, not a stream
        raise UserError(f"{name}: could not be read ({e})") from None


def _unsearchable(e: OSError) -> None:
    print(f"nonstop triage: left out {e.filename}: cannot read it ({e.strerror})", file=sys.stderr)


def plain_files(args: list[str]) -> list[str] | None:
    """The files `collect(args)` would read, in its order, where every argument is a regular
    file or a directory (walked as `collect` walks it) and none needs a word on standard
    error to be found; else None. What each one is (text, compressed, binary) is not looked
    at: `nonstop triage` starts its search on them first (triage.scan_unread) and collects
    as usual where one is not plain text."""
    out: list[str] = []
    failed: list[OSError] = []
    for arg in args:
        try:
            st = os.stat(arg)
        except OSError:
            return None
        if stat.S_ISREG(st.st_mode):
            out.append(arg)
        elif stat.S_ISDIR(st.st_mode):
            found = _walk(arg, failed.append)
            if not found or failed:
                return None
            out.extend(found)
        else:
            return None
    return out


def _walk(top: str, onerror: Callable[[OSError], None]) -> list[str]:
    """The files of folder `top` that `collect` reads, recursively, in name order, hidden ones
    left out."""
    return sorted(
        os.path.join(d, n)
        for d, _, names in os.walk(top, onerror=onerror)
        for n in names
        if not n.startswith(".") and os.path.isfile(os.path.join(d, n))
    )


def collect(args: list[str], spool: Path) -> Inputs:
    """The files `nonstop triage ARGS` reads: each file as given, each directory's files
    (recursively, in name order, hidden ones left out), `-` as standard input and a pipe
    (`<(journalctl -k)`) read once into `spool` (a pipe cannot be read twice; triage reads a
    file's tail again for its guess); compressed and UTF-16 files converted into `spool`."""
    got = Inputs()
    for arg in args:
        if arg == "-":
            if STDIN in got.names.values():
                continue  # standard input is read once
            stdin = sys.stdin
            if stdin is None or stdin.isatty():
                raise UserError(
                    "-: standard input is a terminal; pipe a log in "
                    "(e.g. journalctl -k | nonstop triage -)"
                )
            out = spool / "stdin.log"
            _spool_stream(stdin, out, "-: standard input")
            readable(str(out), STDIN, spool, got, named=True)
            got.names.setdefault(str(out), STDIN)
            continue
        try:
            st = os.stat(arg)
        except FileNotFoundError:
            raise UserError(f"{arg}: no such log file") from None
        except OSError as e:  # a symbolic link loop, a name too long, a folder not searchable
            raise UserError(f"{arg}: cannot read log ({e.strerror or e})") from None
        if stat.S_ISDIR(st.st_mode):
            found = _walk(arg, _unsearchable)
            if not found:
                raise UserError(f"{arg}: a directory with no files in it")
            before = len(got.files)
            for path in found:
                readable(path, path, spool, got, named=False)
            if len(got.files) == before:
                raise UserError(f"{arg}: a directory with no log in it (every file left out)")
        elif stat.S_ISREG(st.st_mode):
            readable(arg, arg, spool, got, named=True)
        elif stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode):
            out = spool / f"{len(got.names) + len(got.files)}-pipe.log"
            try:
                with open(arg, "rb") as src:
                    _spool_stream(src, out, arg)
            except OSError as e:
                raise UserError(f"{arg}: cannot read log ({e.strerror or e})") from None
            readable(str(out), arg, spool, got, named=True)
        else:  # a device: /dev/zero would never end
            raise UserError(f"{arg}: not a file, a directory or a pipe")
    return got
