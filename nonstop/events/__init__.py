"""The event contract: schema, writer and reader (standard library only)."""

from nonstop.events.reader import EventWarning, ReadStats, iter_events, read_events
from nonstop.events.schema import KINDS, SCHEMA_VERSION, Event, SchemaError, from_dict
from nonstop.events.writer import EventWriter

__all__ = [
    "KINDS",
    "SCHEMA_VERSION",
    "Event",
    "EventWarning",
    "EventWriter",
    "ReadStats",
    "SchemaError",
    "from_dict",
    "iter_events",
    "read_events",
]
