"""``jax.experimental``: Pallas (``pallas``, ``pallas.tpu``) and ``shard_map``."""
