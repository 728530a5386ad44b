"""``jax.experimental``: Pallas (``pallas``, ``pallas.tpu``), ``shard_map`` and ``checkify``."""
