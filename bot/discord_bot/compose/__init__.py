"""What players read and see, composed from events: pure functions that build :class:`Post`
objects (plain data), one module per feature; the table turns them into Discord messages."""
