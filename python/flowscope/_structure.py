"""Nested Python structures (lists, tuples, dicts) flattened to their leaves and packed back, as tf.nest does."""


def flatten(value):
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in flatten(item)]
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in flatten(value[key])]
    return [value]


def pack_as(structure, leaves):
    """Rebuilds `structure` with the leaves in order (leaves is consumed)."""
    it = iter(leaves)

    def build(s):
        if isinstance(s, (list, tuple)):
            items = [build(x) for x in s]
            return type(s)(*items) if hasattr(s, "_fields") else type(s)(items)
        if isinstance(s, dict):
            return {k: build(s[k]) for k in sorted(s)}
        return next(it)

    return build(structure)
